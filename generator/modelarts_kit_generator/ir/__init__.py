"""The intermediate representation: every decision about the generated client, as data.

``build_ir(spec, options)`` reads the loaded spec (operations, parameters, bodies,
responses, servers, security schemes) and decides names, signatures, docstrings, model
names, retry eligibility and error classes. The templates only print these values.

Every spec-derived string is escaped here, for the one target it is printed in, through
:mod:`modelarts_kit_generator.escaping`: ``*_literal`` fields are Python string literals,
``*_doc`` fields and docstring lines are docstring text, ``*_toml`` is a TOML string and
``*_md`` is Markdown. Names printed as code are identifiers built by
:mod:`modelarts_kit_generator.naming` (ASCII only).

The package, by what it builds: :mod:`.model` (the IR dataclasses, typed signatures:
``ArgumentIR``, ``SignatureIR``), :mod:`.properties` (the typed schema node, ``SchemaNode``,
joining the walker's view and the schema model's strength, and one class per property kind,
each with its annotation, imports, validators and strength), :mod:`.resolved` (what every
operation means, resolved once: role, success response, error codes), :mod:`.operations`
(one operation, by small named builders), :mod:`.docstrings` (an operation's docstring),
:mod:`.errors`, :mod:`.wait`, :mod:`.paging`, :mod:`.follow`, :mod:`.lazy`,
:mod:`.model_additions` (field rules, the copy method), :mod:`.client` (variants, servers,
auth header), :mod:`.literals`, and :mod:`.build` (``build_ir``, the assembly, by small named
builders).
"""

from modelarts_kit_generator.ir.build import build_ir
from modelarts_kit_generator.ir.model import (
    BodyIR,
    ClientIR,
    ClientParameterIR,
    ClientVariantIR,
    ErrorClassIR,
    OperationIR,
    ParameterIR,
    ServerVariableIR,
)
from modelarts_kit_generator.options import GeneratorOptions

__all__ = [
    "BodyIR",
    "ClientIR",
    "ClientParameterIR",
    "ClientVariantIR",
    "ErrorClassIR",
    "GeneratorOptions",
    "OperationIR",
    "ParameterIR",
    "ServerVariableIR",
    "build_ir",
]

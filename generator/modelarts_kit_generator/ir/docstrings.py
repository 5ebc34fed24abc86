"""The docstring of an operation's method: summary, description, endpoint, arguments, what
it returns, and what it raises (with the error codes the spec lists, by meaning)."""

from __future__ import annotations

from modelarts_kit_generator.escaping import docstring_inline, docstring_lines
from modelarts_kit_generator.ir.model import DOC_WIDTH, BodyIR, ErrorClassIR, ParameterIR
from modelarts_kit_generator.ir.resolved import ResolvedOperation

__all__ = ["operation_docstring"]


def operation_docstring(
    resolved: ResolvedOperation,
    params: list[ParameterIR],
    body: BodyIR | None,
    return_model: str | None,
    errors: tuple[ErrorClassIR, ...],
) -> tuple[str, ...]:
    """The docstring's lines (``params``: the ones the caller passes)."""
    op = resolved.op
    lines = docstring_lines(op.summary or op.operation_id, DOC_WIDTH)
    if op.description.strip():
        lines += ["", *docstring_lines(op.description, DOC_WIDTH)]
    lines += ["", f"``{op.method.upper()} {docstring_inline(op.path)}``"]
    lines += _arguments(params, body)
    lines += ["", "Returns:"]
    returned = (
        f"The ``{resolved.success}`` response, as ``{return_model}``."
        if return_model
        else (f"Nothing (``{resolved.success}``).")
    )
    lines.append("    " + returned)
    lines += _raises(resolved, errors)
    return tuple(lines)


def _arguments(params: list[ParameterIR], body: BodyIR | None) -> list[str]:
    args = [
        (p.python_name, p.description or f"The {p.location} parameter ``{p.wire_name}``.")
        for p in params
    ]
    if body is not None:
        args.append(
            (
                "body",
                f"The request body, a ``{body.model}`` or a mapping validated "
                "into one before anything is sent; an ``UncheckedBody`` is sent as it is.",
            )
        )
    args.append(("deadline", "Seconds this call may take in all (default: the client's)."))
    lines = ["", "Args:"]
    for name, text in args:
        lines += _hanging(f"{name}: {text}")
    return lines


def _raises(resolved: ResolvedOperation, errors: tuple[ErrorClassIR, ...]) -> list[str]:
    op = resolved.op
    documented = sorted(
        {
            int(r.status)
            for r in op.responses
            if r.status.isdigit() and not r.status.startswith(("1", "2", "3"))
        }
    )
    by_status = {e.status: e.name for e in errors if e.status is not None}
    lines = ["", "Raises:"]
    for status in documented:
        family = "ClientError" if status < 500 else "ServerError"
        description = next((r.description for r in op.responses if r.status == str(status)), "")
        text = f"{by_status.get(status, family)}: HTTP {status}" + (
            f": {description.strip().rstrip('.')}." if description.strip() else "."
        )
        lines += _hanging(text)
        lines += _error_codes(resolved, status)
    return [
        *lines,
        "    RequestValidationError: an argument breaks a rule of the spec (nothing is sent).",
        "    TransportError: the request could not be sent or no answer arrived.",
        "    DecodeError: the answer is not the documented JSON.",
    ]


def _hanging(text: str) -> list[str]:
    """``text`` as a docstring entry: indented 4, its continuation lines 8."""
    wrapped = docstring_lines(text, DOC_WIDTH - 8)
    return ["    " + wrapped[0], *("        " + line for line in wrapped[1:])]


def _error_codes(resolved: ResolvedOperation, status: int) -> list[str]:
    """Docstring lines: the codes the spec lists for the operation answering ``status``."""
    lines: list[str] = []
    for meaning, codes in resolved.error_codes.get(str(status), ()):
        wrapped = docstring_lines(f"- {meaning}: {', '.join(codes)}", DOC_WIDTH - 8)
        lines += ["        " + wrapped[0], *("          " + line for line in wrapped[1:])]
    return ["        Error codes (``error_code``) by meaning:", *lines] if lines else []

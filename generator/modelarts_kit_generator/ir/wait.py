"""The IR of the generated ``wait`` method: the final phases and how to poll, from the spec's
roles and lifecycle."""

from __future__ import annotations

from modelarts_kit_spec import SpecError
from modelarts_kit_spec.meaning import Role

from modelarts_kit_generator.escaping import (
    docstring_lines,
    markdown_text,
    python_string,
)
from modelarts_kit_generator.ir.literals import indented, tuple_literal
from modelarts_kit_generator.ir.model import DOC_WIDTH, OperationIR, WaitIR
from modelarts_kit_generator.ir.resolved import ResolvedSpec
from modelarts_kit_generator.naming import snake_case

__all__ = ["build_wait"]


def build_wait(resolved: ResolvedSpec, operations: tuple[OperationIR, ...]) -> WaitIR | None:
    """The wait helper, when the spec states roles and a lifecycle (ModelArts' does)."""
    roles, lifecycle = resolved.roles, resolved.lifecycle
    show = resolved.ir_with_role(Role.SHOW, operations)
    if roles is None or lifecycle is None or show is None:
        return None
    if show.return_model is None:
        raise SpecError(f"{roles.show.pointer}: the show operation returns no body to poll")
    id_argument = snake_case(roles.job_id_parameter)
    if show.call_signature.without({"deadline"}).names() != (id_argument,):
        raise SpecError(
            f"{roles.show.pointer}: the show operation must take only the job id "
            f"{roles.job_id_parameter!r} (besides client-wide parameters) to be polled"
        )
    resource = id_argument.removesuffix("_id")
    final = tuple(p for p in lifecycle.phases if p in lifecycle.final)
    phase_field = lifecycle.phase_field.strip("/").replace("/", ".")
    doc = [
        *docstring_lines(
            f"Poll ``{show.python_name}`` until the job's ``{phase_field}`` is one of "
            f"``until`` (by default the final phases: {', '.join(final)}).",
            DOC_WIDTH,
        ),
        "",
        *docstring_lines(
            "The first poll is immediate; the wait between polls starts at ``poll`` seconds "
            "and doubles after each poll, up to ``max_poll``. Errors of the polls are "
            "raised as they are (retries of idempotent requests happen inside each poll).",
            DOC_WIDTH,
        ),
        "",
        "Returns:",
        f"    The last ``{show.return_model}``, whose phase is in ``until``.",
        "",
        "Raises:",
        "    WaitTimeoutError: ``timeout`` seconds passed first; it carries the last",
        "        response (``last_response``, an ``ApiResponse``) and its phase.",
        "    ValueError: ``until`` is empty, or ``timeout``/``poll``/``max_poll`` is negative.",
    ]
    method_name = f"wait_for_{resource}"
    return WaitIR(
        method_name=method_name,
        method_name_literal=python_string(method_name),
        id_argument=id_argument,
        show_method=show.python_name,
        return_model=show.return_model,
        phase_pointer_literal=python_string(lifecycle.phase_field),
        final_constant=f"{resource.upper()}_FINAL_PHASES",
        final_literal=tuple_literal(final),
        final_md=", ".join(markdown_text(p, "/x-modelarts-lifecycle/final") for p in final),
        phases_constant=f"{resource.upper()}_PHASES",
        phases_literal=tuple_literal(lifecycle.phases),
        docstring=indented(tuple(doc)),
    )

"""The IR of the client classes: variants, client parameters, servers, token header, version."""

from __future__ import annotations

import re
from collections.abc import Mapping

from modelarts_kit_spec import Spec, SpecError
from modelarts_kit_spec.load import escape_pointer_token

from modelarts_kit_generator.escaping import (
    docstring_inline,
    normalise_whitespace,
    python_string,
    shorten,
)
from modelarts_kit_generator.ir.model import ClientVariantIR, ServerVariableIR
from modelarts_kit_generator.naming import snake_case

__all__ = [
    "client_parameters",
    "client_variants",
    "package_version_of",
    "spec_servers",
    "spec_token_header",
]


def client_variants(client_name: str) -> tuple[ClientVariantIR, ...]:
    return (
        ClientVariantIR(
            class_name=f"{client_name}Client",
            is_async=False,
            def_="def",
            await_="",
            with_="with",
            http_client_type="httpx.Client",
            transport_type="httpx.BaseTransport",
            sleep_type="Callable[[float], None]",
            default_sleep="time.sleep",
            enter="__enter__",
            exit="__exit__",
            close_name="close",
            close_http="self._http.close()",
            summary="Synchronous client; use it as a context manager (``with``) or call close().",
            for_="for",
            iterator_type="Iterator",
            iter_bytes="iter_bytes",
            close_response="streamed.close()",
            deadline_scope="_sync_scope",
            raw_class_name=f"{client_name}ClientWithRawResponse",
        ),
        ClientVariantIR(
            class_name=f"Async{client_name}Client",
            is_async=True,
            def_="async def",
            await_="await ",
            with_="async with",
            http_client_type="httpx.AsyncClient",
            transport_type="httpx.AsyncBaseTransport",
            sleep_type="Callable[[float], Awaitable[None]]",
            default_sleep="_asyncio_sleep",
            enter="__aenter__",
            exit="__aexit__",
            close_name="aclose",
            close_http="await self._http.aclose()",
            summary="Asynchronous client; use it with ``async with`` or await aclose().",
            for_="async for",
            iterator_type="AsyncIterator",
            iter_bytes="aiter_bytes",
            close_response="await streamed.aclose()",
            deadline_scope="_async_scope",
            raw_class_name=f"Async{client_name}ClientWithRawResponse",
        ),
    )


def client_parameters(spec: Spec) -> dict[str, str]:
    """Path parameters every operation has (ModelArts' ``project_id``) belong to the client."""
    operations = spec.operations
    if len(operations) < 2:
        return {}
    common: dict[str, str] | None = None
    for op in operations:
        names = {p.name: p.description for p in op.parameters if p.location == "path"}
        common = names if common is None else {k: v for k, v in common.items() if k in names}
    return dict(sorted((common or {}).items()))


def spec_servers(spec: Spec) -> tuple[str | None, tuple[ServerVariableIR, ...]]:
    servers = spec.document.get("servers") or []
    if not servers or not isinstance(servers, list) or not isinstance(servers[0], Mapping):
        return None, ()
    server = servers[0]
    url = str(server.get("url", ""))
    if not re.match(r"https?://", url):
        # A relative server URL says nothing usable about the host.
        return None, ()
    variables = []
    taken: set[str] = set()
    for name in re.findall(r"\{([^}]+)\}", url):
        declared = (server.get("variables") or {}).get(name) or {}
        default = declared.get("default")
        python_name = snake_case(name)
        if python_name in taken:
            continue  # the same variable twice in the URL
        taken.add(python_name)
        description = normalise_whitespace(str(declared.get("description", ""))).rstrip(".")
        default_text = None if default is None else str(default)
        doc = docstring_inline(description or "server variable") + (
            "" if default_text is None else f" (default ``{docstring_inline(default_text)}``)"
        )
        variables.append(
            ServerVariableIR(
                name_literal=python_string(name),
                python_name=python_name,
                default_literal="None" if default_text is None else python_string(default_text),
                doc=doc + ".",
            )
        )
    return url.rstrip("/"), tuple(variables)


# RFC 9110 token: the characters an HTTP field name may hold.
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def spec_token_header(spec: Spec) -> str:
    schemes = (spec.document.get("components") or {}).get("securitySchemes") or {}
    for key, scheme in schemes.items():
        scheme = spec.deref(scheme)
        if (
            scheme.get("type") == "apiKey"
            and scheme.get("in") == "header"
            and str(scheme.get("name", "")).lower() != "authorization"
        ):
            name = str(scheme["name"])
            if not _HEADER_NAME.fullmatch(name):
                raise SpecError(
                    f"/components/securitySchemes/{escape_pointer_token(str(key))}/name: "
                    f"{shorten(name)} is not an HTTP header name (rule: RFC 9110 token "
                    "characters only)"
                )
            return name
    return "Authorization"


def package_version_of(version: str) -> str:
    return version if re.fullmatch(r"\d+(\.\d+){0,3}", version) else "0.0.0"

"""The kit's neutral wire layer, the bottom floor below ``modelarts_kit_spec``: what every party
to an HTTP exchange needs whatever the contract says, written once. It imports nothing of the
kit; the spec layer, the reference server, the mock, the proxy and the contract checks use it.

Modules: ``errors`` (``KitError``, the base of every error the kit raises, and the exit codes),
``wirejson`` (the one decoder of JSON bodies from the wire), ``signing`` (the SDK-HMAC-SHA256
canonical request and signature), ``headers`` (case-insensitive multi-valued headers, ASGI
header bytes), ``redaction`` (the one scrubbing of secrets and credential headers),
``pointers`` (JSON Pointer tokens), ``asgi`` (ASGI types, reading a request body under a cap,
answering lifespan events), ``threads`` (running an HTTP server in a daemon thread).
"""

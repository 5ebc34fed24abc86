"""The kit's neutral wire layer, on the bottom floor beside ``modelarts_kit_spec``: HTTP
plumbing that the reference server, the mock and the proxy share, written once. It imports
nothing of the kit.

Modules: ``asgi`` (ASGI types, reading a request body under a cap, answering lifespan events),
``threads`` (running an HTTP server in a daemon thread until the caller is done with it).
"""

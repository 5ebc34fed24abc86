"""A JavaScript client (``client.mjs``) and the adapter that lets ``contract client`` check it."""

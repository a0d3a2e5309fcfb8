"""The server's wing: security headers, long links, the upload door and the memory ledger, the runtime adapter, the
lifespan."""

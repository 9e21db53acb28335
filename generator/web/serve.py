"""Running a Trailwright server: uvicorn on h11, with the page headers on uvicorn's own answers too, and a stop
that says one line.

Glossary
--------
parser answer  a request so malformed that uvicorn answers it itself (400 "Invalid HTTP request received.")
               before the guard sees it: ``GuardedH11`` gives that answer the guard's ``SECURITY_HEADERS``.
stop           Ctrl-C or SIGTERM: uvicorn ends the app's life (its searches, clusters and bots close there),
               and ``serve`` prints one line; no traceback, whatever the server did before.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from generator.web.guard import SECURITY_HEADERS


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol whose own 400 answer carries the page headers (see the module glossary)."""

    def send_400_response(self, msg: str) -> None:
        """The 400 answer of a request uvicorn could not parse, with the page headers and a one-line body."""
        import h11
        from uvicorn.protocols.http.h11_impl import STATUS_PHRASES

        body = (" ".join(msg.split()) + "\n").encode("ascii", "replace")
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
            *SECURITY_HEADERS,
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=STATUS_PHRASES[400]),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        self.transport.close()


def serve(app: Any, name: str, host: str, port: int, **options: Any) -> None:
    """Serve ``app`` until Ctrl-C or SIGTERM, then say that ``name`` stopped (one line)."""
    import signal

    import uvicorn

    # uvicorn stops gracefully on either signal, then raises it again for the handlers it found: these take it
    noted = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            http=GuardedH11,
            log_level="warning",
            proxy_headers=False,  # the guard reads forwarding headers, and only from the peers it is told to trust
            forwarded_allow_ips="",
            **options,
        )
    finally:
        for sig, handler in noted.items():
            signal.signal(sig, handler)
    print(f"{name} stopped.", flush=True)

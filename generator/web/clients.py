"""Who a request comes from, and how often the log may say so.

Glossary
--------
client address  the TCP peer's address. A forwarding header (``X-Forwarded-For``) is believed only from a peer
                named a trusted proxy (``--trust-proxy``), and only its last hop: the address that proxy itself
                saw. Anyone may write the earlier hops, so they are never read; from any other peer the header
                is ignored.
refusal log     every refusal is one log line, but only the first ``first`` of each client in a minute; the
                rest of that minute are counted and said in one summary line when the minute is over.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field


def check_proxy(address: str) -> str:
    """A trusted proxy's address as written (``ValueError`` for anything that is not one IP address)."""
    return str(ipaddress.ip_address(address.strip()))


def peer_of(scope) -> str:
    """The TCP peer's address ("?" when the server does not know it)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def client_address(scope, trusted: frozenset[str]) -> str:
    """The client's address (see the module glossary): the peer, or a trusted proxy's last hop."""
    peer = peer_of(scope)
    if peer not in trusted:
        return peer
    # every X-Forwarded-For line, in order: a proxy may add its own as a line of its own (HAProxy does), after
    # any the client wrote, so the last hop is the last address of the last line
    forwarded = ",".join(v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"x-forwarded-for")
    if not forwarded.strip():
        return peer
    try:
        return check_proxy(forwarded.split(",")[-1])
    except ValueError:
        return peer  # the proxy wrote no address: its own stands


@dataclass
class _Tally:
    start: float
    logged: int = 0
    hidden: int = 0


@dataclass
class RefusalLog:
    """Refusals written to ``log``: the first ``first`` a minute per client, then one summary line a minute."""

    log: logging.Logger
    first: int = 5
    minute: float = 60.0
    tallies: dict[str, _Tally] = field(default_factory=dict)

    def say(self, client: str, line: str, now: float | None = None) -> bool:
        """Log ``line`` (a refusal of ``client``) unless this minute's share is spent; whether it was logged."""
        now = time.monotonic() if now is None else now
        tally = self.tallies.get(client)
        if tally is not None and now - tally.start >= self.minute:
            self._summary(client, tally)
            tally = None
        if tally is None:
            if len(self.tallies) > 10_000:  # forget the quietest clients rather than grow without bound
                self.flush(now)
            tally = self.tallies[client] = _Tally(now)
        if tally.logged < self.first:
            tally.logged += 1
            self.log.warning("refused %s: %s", client, line)
            return True
        tally.hidden += 1
        return False

    def flush(self, now: float | None = None) -> None:
        """Summaries of every client whose minute is over (and forget them)."""
        now = time.monotonic() if now is None else now
        for client, tally in list(self.tallies.items()):
            if now - tally.start >= self.minute or len(self.tallies) > 10_000:
                self._summary(client, tally)
                del self.tallies[client]

    def _summary(self, client: str, tally: _Tally) -> None:
        if tally.hidden:
            self.log.warning(
                "refused %s %d more time(s) in the last minute (not logged one by one)", client, tally.hidden
            )


def trusted_set(addresses: Iterable[str]) -> frozenset[str]:
    """The trusted proxies (``ValueError`` naming the first that is no IP address)."""
    out = set()
    for a in addresses:
        try:
            out.add(check_proxy(a))
        except ValueError:
            raise ValueError(f"{a!r} is not an IP address") from None
    return frozenset(out)


class QuietRepeats(logging.Filter):
    """A logging filter for the web server's own lines (uvicorn's "Invalid HTTP request received." and the like,
    which name no client): the first ``first`` lines of each kind a minute pass, the rest are counted, and the next
    one to pass after the minute says how many there were."""

    def __init__(self, first: int = 5, minute: float = 60.0, clock=time.monotonic):
        super().__init__()
        self.first, self.minute, self.clock = first, minute, clock
        self.tallies: dict[str, _Tally] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now, key = self.clock(), str(record.msg)[:200]
        tally = self.tallies.get(key)
        hidden = 0
        if tally is not None and now - tally.start >= self.minute:
            hidden, tally = tally.hidden, None
        if tally is None:
            if len(self.tallies) > 1_000:
                self.tallies.clear()
            tally = self.tallies[key] = _Tally(now)
        if tally.logged >= self.first:
            tally.hidden += 1
            return False
        tally.logged += 1
        if hidden:
            record.msg = f"{record.msg} ({hidden} more like it in the minute before, not logged one by one)"
        return True


def quiet_server_logs() -> None:
    """Rate-limit uvicorn's own log lines (see ``QuietRepeats``): a flood of malformed requests is a few lines a
    minute, not one a request."""
    for name in ("uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(QuietRepeats())

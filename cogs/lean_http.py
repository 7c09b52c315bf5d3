"""A small HTTP/1.1 client for the requests an interaction's token makes: its answer, and
later its answer's edit or delete (cogs/answer_adapter.py).

Why not aiohttp's session, as discord.py does (issue 33, point 4): an answer is a few hundred
bytes of JSON to one host, yet aiohttp's request path (the URL parsed again by yarl, a
request and a response object of some forty fields, a timer, a task to write the body, the
cookie jar) made such a request cost ~120 µs of CPU through discord.py's adapter, against
~60 µs here (benchmarks/answer_http.py); LamaBot makes about 1.5 of them per interaction.
Here a request is its bytes written to a kept-alive connection and its response parsed off
the same connection: one future.

New connections are made as aiohttp makes them: addresses looked up once per
`DNS_TTL_S`, then IPv6 and IPv4 raced ("happy eyeballs"), so a dead route costs 0.25 s, not the
connect timeout. What it does not do, the caller leaves to aiohttp: proxies, files
(multipart), redirects, cookies, HEAD requests. It sends no Accept-Encoding, which by HTTP's
rules accepts any coding: a gzip or deflate body is unpacked, another coding is an error.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiohappyeyeballs
import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy

TOTAL_TIMEOUT_S = 300.0  # aiohttp's default for a whole request
CONNECT_TIMEOUT_S = 30.0  # aiohttp's default for a connection
IDLE_S = 15.0  # a connection idle longer is closed, not reused: the server may have closed it
DNS_TTL_S = 10.0  # aiohttp's: a host's addresses are looked up again after this
HAPPY_EYEBALLS_DELAY_S = 0.25  # aiohttp's: the next address is tried after this
MAX_IDLE_PER_ORIGIN = 100
NO_BODY = frozenset({204, 304})
# tried again on a new connection when a kept-alive one turns out closed, as aiohttp does:
# a POST or a PATCH may have been done already (an answer twice is Discord's 400)
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})

Origin = tuple[str, str, int]  # scheme, host, port
AddressInfo = tuple[int, int, int, str, tuple]  # one of socket.getaddrinfo's answers


@dataclass(frozen=True, slots=True)
class Response:
    """What discord.py's errors and rate limit headers read of an aiohttp response."""
    status: int
    reason: str
    headers: CIMultiDictProxy[str]
    body: bytes

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class _Connection(asyncio.Protocol):
    """One keep-alive connection, one request at a time."""

    def __init__(self, origin: Origin, forget: Callable[[_Connection], None]) -> None:
        self.origin = origin
        self._forget = forget  # the client's: this connection is gone
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.reused = False  # it carried a response before this request
        self.idle_since = 0.0
        self._buffer = bytearray()
        self._waiter: asyncio.Future[Response] | None = None
        self._head: tuple[int, str, CIMultiDict[str], int] | None = None  # ..., body start
        self._keep_alive = True

    # --- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if self._waiter is None or self._waiter.done():
            self._keep_alive = False  # bytes nobody asked for: this connection is out of step
            return
        try:
            response = self._parse(at_eof=False)
        except (ValueError, zlib.error) as error:  # not HTTP: the connection is done for
            self._keep_alive = False
            self._fail(aiohttp.ClientPayloadError(f"not an HTTP response: {error}"))
            return
        if response is not None:
            self._waiter.set_result(response)

    def eof_received(self) -> bool:
        self._keep_alive = False
        if self._waiter is not None and not self._waiter.done():
            try:
                response = self._parse(at_eof=True)
            except (ValueError, zlib.error):
                response = None
            if response is not None:
                self._waiter.set_result(response)
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._forget(self)
        self._fail(aiohttp.ServerDisconnectedError() if exc is None
                   else aiohttp.ClientOSError(*exc.args) if isinstance(exc, OSError)
                   else aiohttp.ServerDisconnectedError(str(exc)))

    # --- one request
    async def exchange(self, request: bytes) -> Response:
        if self.transport is None or self.closed or self.transport.is_closing():
            raise aiohttp.ServerDisconnectedError()  # lost before a byte was written
        self._buffer.clear()
        self._head = None
        self._waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        try:
            return await self._waiter
        finally:
            self._waiter = None

    @property
    def answered_nothing(self) -> bool:
        """No byte of a response came: a reused connection the server had closed."""
        return not self._buffer

    @property
    def reusable(self) -> bool:
        return (self._keep_alive and not self.closed and self.transport is not None
                and not self.transport.is_closing())

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    def _fail(self, error: Exception) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(error)

    # --- the response, as far as it came
    def _parse(self, *, at_eof: bool) -> Response | None:
        while self._head is None:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return None
            head = _parse_head(bytes(self._buffer[:end]))
            if 100 <= head[0] < 200:  # an interim response (100 Continue): the real one follows
                del self._buffer[:end + 4]
                continue
            self._head = (*head, end + 4)
        status, reason, headers, start = self._head
        whole = self._body(status, headers, start, at_eof)
        if whole is None:
            return None
        body, end = whole
        if end < len(self._buffer) or "close" in headers.get("Connection", "").lower():
            self._keep_alive = False  # bytes past the response: out of step from now on
        return Response(status, reason, CIMultiDictProxy(headers), _decoded(body, headers))

    def _body(self, status: int, headers: CIMultiDict[str], start: int,
              at_eof: bool) -> tuple[bytes, int] | None:
        """The whole body and where it ends, once it is in; else None (more to come)."""
        if status in NO_BODY:
            return b"", start
        if "chunked" in headers.get("Transfer-Encoding", "").lower():
            return _dechunked(self._buffer, start)
        length = headers.get("Content-Length")
        if length is not None:
            end = start + int(length)
            return (bytes(self._buffer[start:end]), end) if len(self._buffer) >= end else None
        self._keep_alive = False  # the body runs to the connection's end
        return (bytes(self._buffer[start:]), len(self._buffer)) if at_eof else None


def _parse_head(head: bytes) -> tuple[int, str, CIMultiDict[str]]:
    status_line, *lines = head.decode("latin-1").split("\r\n")
    version, _, rest = status_line.partition(" ")
    if not version.startswith("HTTP/1."):
        raise ValueError(f"not HTTP/1.x: {status_line!r}")
    code, _, reason = rest.partition(" ")
    headers: CIMultiDict[str] = CIMultiDict()
    for line in lines:
        name, colon, value = line.partition(":")
        if not colon:
            raise ValueError(f"bad header line: {line!r}")
        headers.add(name.strip(), value.strip())
    if version == "HTTP/1.0" and "keep-alive" not in headers.get("Connection", "").lower():
        headers["Connection"] = "close"
    return int(code), reason, headers


def _dechunked(buffer: bytearray, start: int) -> tuple[bytes, int] | None:
    body = bytearray()
    at = start
    while True:
        line_end = buffer.find(b"\r\n", at)
        if line_end < 0:
            return None
        size = int(bytes(buffer[at:line_end]).split(b";", 1)[0], 16)
        at = line_end + 2
        if size == 0:  # then trailers (none expected), up to an empty line
            end = buffer.find(b"\r\n\r\n", at - 2)
            return (bytes(body), end + 4) if end >= 0 else None
        if len(buffer) < at + size + 2:
            return None
        body += buffer[at:at + size]
        at += size + 2


def _decoded(body: bytes, headers: CIMultiDict[str]) -> bytes:
    encoding = headers.get("Content-Encoding", "identity").lower()
    if encoding in ("gzip", "deflate"):
        return zlib.decompress(body, 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)
    if encoding != "identity":
        raise ValueError(f"a body in {encoding}, which this client cannot unpack")
    return body


def default_tls() -> ssl.SSLContext:
    """As aiohttp's: the system's certificates, HTTP/1.1 offered by ALPN."""
    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    return context


def split_url(url: str) -> tuple[Origin, str, str]:
    """(scheme, host, port), the Host header, and the path with its query."""
    scheme, _, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    host, colon, port = authority.rpartition(":")
    if not colon or "]" in port:
        host, port = authority, ""
    host = host[1:-1] if host.startswith("[") else host  # an IPv6 address, as sockets take it
    default = 443 if scheme == "https" else 80
    if scheme not in ("http", "https") or not host:
        raise ValueError(f"not an http(s) URL: {url!r}")
    return (scheme, host, int(port) if port else default), authority, slash + path


class LeanHttp:
    """Kept-alive connections per origin, for `request`. One per Discord client; `close()`
    with it. `tls`: the certificates trusted (default: the system's)."""

    def __init__(self, user_agent: str, *, tls: ssl.SSLContext | None = None) -> None:
        self._user_agent = user_agent
        self._tls = tls or default_tls()  # made now: loading the certificates takes ~20 ms
        self._idle: dict[Origin, list[_Connection]] = {}
        self._open: set[_Connection] = set()
        self._addresses: dict[tuple[str, int], tuple[float, asyncio.Future[Any]]] = {}
        self._closed = False

    async def request(self, method: str, url: str, *, body: bytes | None = None,
                      headers: dict[str, str] | None = None) -> Response:
        """One request and its whole response. An idempotent request on a reused connection
        that the server had closed (no byte of an answer) is sent once more on a new one.
        Connection failures raise aiohttp's errors (ClientOSError, ServerDisconnectedError),
        a whole request past TOTAL_TIMEOUT_S TimeoutError, as aiohttp's session would."""
        if method == "HEAD":
            raise ValueError("HEAD is not supported: its response has no body to frame")
        origin, authority, path = split_url(url)
        request = self._request_bytes(method, authority, path, body, headers)
        async with asyncio.timeout(TOTAL_TIMEOUT_S):
            connection = await self._connection(origin)
            try:
                return await self._exchange(connection, request)
            except aiohttp.ClientConnectionError:
                if not (connection.reused and connection.answered_nothing
                        and method in IDEMPOTENT):
                    raise
            return await self._exchange(await self._connect(origin), request)

    async def _exchange(self, connection: _Connection, request: bytes) -> Response:
        try:
            response = await connection.exchange(request)
        except BaseException:  # failed, cancelled or timed out half-way: unusable
            connection.close()
            raise
        self._release(connection)
        return response

    def close(self) -> None:
        """Every connection closed, those with a request under way too."""
        self._closed = True
        for connection in list(self._open):
            connection.close()
        self._open.clear()
        self._idle.clear()

    def _request_bytes(self, method: str, authority: str, path: str, body: bytes | None,
                       headers: dict[str, str] | None) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {authority}",
                 f"User-Agent: {self._user_agent}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None or method in ("POST", "PUT", "PATCH"):
            lines.append(f"Content-Length: {len(body or b'')}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")

    async def _connection(self, origin: Origin) -> _Connection:
        """The newest idle connection still fit to carry a request, else a new one."""
        if self._closed:
            raise aiohttp.ClientConnectionError("the client is closed")
        idle = self._idle.get(origin)
        while idle:
            connection = idle.pop()
            if connection.reusable and time.monotonic() - connection.idle_since < IDLE_S:
                connection.reused = True
                return connection
            connection.close()
        return await self._connect(origin)

    async def _connect(self, origin: Origin) -> _Connection:
        scheme, host, port = origin
        loop = asyncio.get_running_loop()
        tls = self._tls if scheme == "https" else None
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                sock = await aiohappyeyeballs.start_connection(
                    await self._addresses_of(host, port),
                    happy_eyeballs_delay=HAPPY_EYEBALLS_DELAY_S, interleave=1)
                _, connection = await loop.create_connection(
                    lambda: _Connection(origin, self._open.discard), sock=sock, ssl=tls,
                    server_hostname=host if tls else None)
        except OSError as error:
            raise aiohttp.ClientOSError(*error.args) from error
        if self._closed:  # closed while this one was being made
            connection.close()
            raise aiohttp.ClientConnectionError("the client is closed")
        self._open.add(connection)
        return connection

    async def _addresses_of(self, host: str, port: int) -> Sequence[AddressInfo]:
        """The host's addresses, looked up once for the connections made meanwhile and again
        after DNS_TTL_S (as aiohttp's resolver); a failed look-up is not kept."""
        key = (host, port)
        kept = self._addresses.get(key)
        if kept is None or time.monotonic() - kept[0] >= DNS_TTL_S:
            lookup = asyncio.ensure_future(asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM))
            kept = self._addresses[key] = (time.monotonic(), lookup)
        try:
            return await asyncio.shield(kept[1])  # a waiter given up stops no other's
        except OSError:
            if self._addresses.get(key) is kept:
                del self._addresses[key]
            raise

    def _release(self, connection: _Connection) -> None:
        """Kept for the next request, unless it cannot carry one; connections idle too
        long (the oldest, at the front) are closed meanwhile."""
        idle = self._idle.setdefault(connection.origin, [])
        now = time.monotonic()
        while idle and (now - idle[0].idle_since >= IDLE_S or not idle[0].reusable):
            idle.pop(0).close()
        if self._closed or not connection.reusable or len(idle) >= MAX_IDLE_PER_ORIGIN:
            connection.close()
            return
        connection.idle_since = now
        idle.append(connection)

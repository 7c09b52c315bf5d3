"""A small HTTP/1.1 client for the requests an interaction's token makes: its answer, and
later its answer's edit or delete (cogs/answer_adapter.py).

Why not aiohttp's session, as discord.py does (issue 33, point 4): an answer is a few hundred
bytes of JSON to one host, yet aiohttp's request path (the URL parsed again by yarl, a
request and a response object of some forty fields, a timer, a task to write the body, the
cookie jar) cost ~80 µs of CPU, and its response's handling ~25 µs more, on every one;
LamaBot makes about 1.5 such requests per interaction. Here a request is its bytes written
to a kept-alive connection and its response parsed off the same connection: one future.

What it does not do, the caller leaves to aiohttp: proxies, files (multipart), redirects,
cookies, compressed bodies it did not ask for (none: it sends no Accept-Encoding).
"""

from __future__ import annotations

import asyncio
import ssl
import time
import zlib
from dataclasses import dataclass
from functools import cache

import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy

TOTAL_TIMEOUT_S = 300.0  # aiohttp's default for a whole request
CONNECT_TIMEOUT_S = 30.0  # aiohttp's default for a connection
IDLE_S = 15.0  # a connection idle longer is closed, not reused: the server may have closed it
MAX_IDLE_PER_ORIGIN = 100
NO_BODY = frozenset({204, 304})
# tried again on a new connection when a kept-alive one turns out closed, as aiohttp does:
# a POST or a PATCH may have been done already (an answer twice is Discord's 400)
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})

Origin = tuple[str, str, int]  # scheme, host, port


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

    def __init__(self, origin: Origin) -> None:
        self.origin = origin
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
        if self._waiter is not None and not self._waiter.done():
            try:
                response = self._parse(at_eof=False)
            except (ValueError, zlib.error) as error:  # not HTTP: the connection is done for
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
        self._fail(aiohttp.ServerDisconnectedError() if exc is None
                   else aiohttp.ClientOSError(*exc.args) if isinstance(exc, OSError)
                   else aiohttp.ServerDisconnectedError(str(exc)))

    # --- one request
    async def exchange(self, request: bytes) -> Response:
        assert self.transport is not None
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
        return self._keep_alive and not self.closed

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
        body = self._body(status, headers, start, at_eof)
        if body is None:
            return None
        if "close" in headers.get("Connection", "").lower():
            self._keep_alive = False
        return Response(status, reason, CIMultiDictProxy(headers), _decoded(body, headers))

    def _body(self, status: int, headers: CIMultiDict[str], start: int,
              at_eof: bool) -> bytes | None:
        """The whole body once it is in, else None (more to come)."""
        if status in NO_BODY:
            return b""
        if "chunked" in headers.get("Transfer-Encoding", "").lower():
            return _dechunked(self._buffer, start)
        length = headers.get("Content-Length")
        if length is not None:
            end = start + int(length)
            return bytes(self._buffer[start:end]) if len(self._buffer) >= end else None
        self._keep_alive = False  # the body runs to the connection's end
        return bytes(self._buffer[start:]) if at_eof else None


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


def _dechunked(buffer: bytearray, start: int) -> bytes | None:
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
            return bytes(body) if end >= 0 else None
        if len(buffer) < at + size + 2:
            return None
        body += buffer[at:at + size]
        at += size + 2


def _decoded(body: bytes, headers: CIMultiDict[str]) -> bytes:
    encoding = headers.get("Content-Encoding", "identity").lower()
    if encoding in ("gzip", "deflate"):
        return zlib.decompress(body, 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)
    return body


@cache
def _tls() -> ssl.SSLContext:
    return ssl.create_default_context()  # as aiohttp's: the system's certificates


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
    with it."""

    def __init__(self, user_agent: str) -> None:
        self._user_agent = user_agent
        self._idle: dict[Origin, list[_Connection]] = {}
        self._closed = False

    async def request(self, method: str, url: str, *, body: bytes | None = None,
                      headers: dict[str, str] | None = None) -> Response:
        """One request and its whole response. An idempotent request on a reused connection
        that the server had closed (no byte of an answer) is sent once more on a new one.
        Connection failures raise aiohttp's errors (ClientOSError, ServerDisconnectedError),
        a whole request past TOTAL_TIMEOUT_S TimeoutError, as aiohttp's session would."""
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
        self._closed = True
        for connections in self._idle.values():
            for connection in connections:
                connection.close()
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
        if self._closed:
            raise aiohttp.ClientConnectionError("the client is closed")
        idle = self._idle.get(origin)
        now = time.monotonic()
        while idle:
            connection = idle.pop()
            if not connection.closed and now - connection.idle_since < IDLE_S:
                connection.reused = True
                return connection
            connection.close()
        return await self._connect(origin)

    async def _connect(self, origin: Origin) -> _Connection:
        scheme, host, port = origin
        loop = asyncio.get_running_loop()
        tls = _tls() if scheme == "https" else None
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                _, connection = await loop.create_connection(
                    lambda: _Connection(origin), host, port, ssl=tls,
                    server_hostname=host if tls else None)
        except OSError as error:
            raise aiohttp.ClientOSError(*error.args) from error
        return connection

    def _release(self, connection: _Connection) -> None:
        idle = self._idle.setdefault(connection.origin, [])
        if self._closed or not connection.reusable or len(idle) >= MAX_IDLE_PER_ORIGIN:
            connection.close()
            return
        connection.idle_since = time.monotonic()
        idle.append(connection)

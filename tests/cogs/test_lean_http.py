"""The answers' HTTP client (cogs/lean_http.py) against real servers on this machine: aiohttp's
web server, TLS with a test certificate, and raw sockets that answer as servers do at the
edges (a body in pieces, chunks, a body to the connection's end, a connection closed while
idle)."""

from __future__ import annotations

import asyncio
import gzip
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from cogs import lean_http
from cogs.lean_http import LeanHttp, split_url

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

TLS = Path(__file__).parents[1] / "support" / "tls"  # a self-signed localhost certificate


@asynccontextmanager
async def site(app: web.Application, tls: ssl.SSLContext | None = None
               ) -> AsyncIterator[str]:
    """aiohttp's server on a free port; its base URL."""
    runner = web.AppRunner(app)
    await runner.setup()
    server = web.TCPSite(runner, "localhost", 0, ssl_context=tls)
    await server.start()
    port = server._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"{'https' if tls else 'http'}://localhost:{port}"
    finally:
        await runner.cleanup()


@asynccontextmanager
async def raw_server(serve: Callable[[asyncio.StreamReader, asyncio.StreamWriter],
                                     Awaitable[None]]) -> AsyncIterator[str]:
    """A server that writes whatever bytes `serve` writes."""
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.close()


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    return head + await reader.readexactly(length)


async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 reply: bytes) -> None:
    """Reads the next request, then writes `reply`."""
    await read_request(reader)
    writer.write(reply)
    await writer.drain()


def counting_app() -> tuple[web.Application, list[object]]:
    """Echoes the request's JSON; `connections` gets each request's connection."""
    connections: list[object] = []

    async def echo(request: web.Request) -> web.Response:
        connections.append(request.transport)
        body = await request.json() if request.can_read_body else None
        return web.json_response({"method": request.method, "path": request.path_qs,
                                  "body": body, "agent": request.headers["User-Agent"]})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", echo)
    return app, connections


@pytest.fixture
async def lean() -> AsyncIterator[LeanHttp]:
    client = LeanHttp("LamaBot-test")
    yield client
    client.close()


async def test_a_request_gets_its_status_headers_and_body(lean):
    app, _ = counting_app()
    async with site(app) as base:
        response = await lean.request("POST", base + "/api/x?with_response=1",
                                      body=b'{"a": 1}',
                                      headers={"Content-Type": "application/json"})
    assert response.status == 200 and response.reason == "OK"
    assert response.headers["content-type"].startswith("application/json")
    assert response.text().startswith("{")
    assert '"path": "/api/x?with_response=1"' in response.text()
    assert '"body": {"a": 1}' in response.text() and '"agent": "LamaBot-test"' in response.text()


async def test_requests_one_after_another_share_one_connection(lean):
    app, connections = counting_app()
    async with site(app) as base:
        for method in ("POST", "PATCH", "DELETE", "GET"):
            assert (await lean.request(method, base + "/a", body=b"{}")).status == 200
    assert len(connections) == 4 and len(set(map(id, connections))) == 1


async def test_requests_at_once_each_get_a_connection_and_all_come_back(lean):
    app, connections = counting_app()
    async with site(app) as base:
        replies = await asyncio.gather(*(lean.request("GET", f"{base}/{n}") for n in range(5)))
        assert [f'"/{n}"' in r.text() for n, r in enumerate(replies)] == [True] * 5
        await lean.request("GET", base + "/again")
    assert len(set(map(id, connections[:5]))) == 5
    assert id(connections[5]) in set(map(id, connections[:5]))  # kept, then reused


def in_pieces(*pieces: bytes):
    """Answers a request with these bytes, a moment apart, as a network hands them over."""
    async def serve(reader, writer):
        await read_request(reader)
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.01)
    return serve


@pytest.mark.parametrize("pieces", [
    (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Le",
     b"ngth: 11\r\n\r\nhello", b" world"),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n",
     b"6\r\n world\r\n0\r\n\r\n"),
], ids=["with its length", "in chunks"])
async def test_a_body_that_comes_in_pieces_is_read_whole(lean, pieces):
    async with raw_server(in_pieces(*pieces)) as base:
        assert (await lean.request("GET", base + "/")).body == b"hello world"


async def test_a_body_without_a_length_runs_to_the_connections_end_and_is_not_reused(lean):
    served = 0

    async def serve(reader, writer):
        nonlocal served
        served += 1
        await read_request(reader)
        writer.write(b"HTTP/1.0 200 OK\r\n\r\nall of it")
        writer.close()

    async with raw_server(serve) as base:
        assert (await lean.request("GET", base + "/")).body == b"all of it"
        assert (await lean.request("GET", base + "/")).body == b"all of it"
    assert served == 2  # a new connection each time


async def test_a_reply_with_no_body_needs_no_length(lean):
    async def serve(reader, writer):
        while True:
            await answer(reader, writer,
                         b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")

    async with raw_server(serve) as base:
        first = await lean.request("DELETE", base + "/")
        second = await lean.request("DELETE", base + "/")
    assert (first.status, first.body, second.status) == (204, b"", 204)


async def test_a_gzipped_body_is_unpacked(lean):
    async def serve(reader, writer):
        await read_request(reader)
        packed = gzip.compress(b'{"ok": true}')
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: "
                     + str(len(packed)).encode() + b"\r\n\r\n" + packed)
        await writer.drain()

    async with raw_server(serve) as base:
        assert (await lean.request("GET", base + "/")).body == b'{"ok": true}'


def closes_instead_of_a_second_reply(connections: list[int]):
    """Answers a connection's first request and, as a server whose keep-alive ran out just
    then, closes it when the second one comes."""
    async def serve(reader, writer):
        connections.append(1)
        await answer(reader, writer, OK)
        await read_request(reader)
        writer.close()
    return serve


async def test_a_delete_on_a_kept_connection_the_server_closed_goes_again_on_a_new_one(lean):
    connections: list[int] = []
    async with raw_server(closes_instead_of_a_second_reply(connections)) as base:
        await lean.request("GET", base + "/")
        assert (await lean.request("DELETE", base + "/")).body == b"ok"
    assert len(connections) == 2


async def test_a_post_on_a_kept_connection_the_server_closed_is_not_sent_twice(lean):
    connections: list[int] = []
    async with raw_server(closes_instead_of_a_second_reply(connections)) as base:
        await lean.request("GET", base + "/")
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await lean.request("POST", base + "/", body=b"{}")
    assert len(connections) == 1


async def test_a_connection_refused_is_aiohttps_connection_error(lean):
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    with pytest.raises(aiohttp.ClientOSError) as refused:
        await lean.request("GET", f"http://127.0.0.1:{port}/")
    assert isinstance(refused.value, OSError) and isinstance(
        refused.value, aiohttp.ClientConnectionError)


async def test_a_connection_idle_too_long_is_not_reused(lean, monkeypatch):
    app, connections = counting_app()
    monkeypatch.setattr(lean_http, "IDLE_S", 0.0)
    async with site(app) as base:
        await lean.request("GET", base + "/")
        await lean.request("GET", base + "/")
    assert len(set(map(id, connections))) == 2


async def test_a_server_that_speaks_no_http_is_an_error_not_a_hang(lean):
    async def serve(reader, writer):
        await answer(reader, writer, b"SSH-2.0-OpenSSH\r\n\r\n")

    async with raw_server(serve) as base:
        with pytest.raises(aiohttp.ClientPayloadError):
            await lean.request("GET", base + "/")
        assert not any(lean._idle.values())  # that connection is not kept


async def test_https_is_verified_against_the_trusted_certificates(lean):
    server_side = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_side.load_cert_chain(TLS / "localhost.pem", TLS / "localhost.key")
    app, _ = counting_app()
    trusting = LeanHttp("LamaBot-test", tls=ssl.create_default_context(
        cafile=TLS / "localhost.pem"))
    async with site(app, server_side) as base:
        with pytest.raises(aiohttp.ClientOSError):  # not a certificate the system trusts
            await lean.request("GET", base + "/")
        try:
            assert (await trusting.request("GET", base + "/secure")).status == 200
        finally:
            trusting.close()


async def test_once_closed_it_keeps_no_connection_and_makes_none(lean):
    app, _ = counting_app()
    async with site(app) as base:
        await lean.request("GET", base + "/")
        kept = [c for idle in lean._idle.values() for c in idle]
        lean.close()
        assert kept and all(c.closed for c in kept)
        with pytest.raises(aiohttp.ClientConnectionError):
            await lean.request("GET", base + "/")


def one_reply_per_connection(replies: list[bytes], connections: list[int]):
    """Each connection's requests answered with `replies` in turn, then left open."""
    async def serve(reader, writer):
        connections.append(1)
        for reply in replies:
            await answer(reader, writer, reply)
        await reader.read()
    return serve


@pytest.mark.parametrize("reply", [
    b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
    OK + b"EXTRA",  # bytes past the response: the connection is out of step
], ids=["connection close", "bytes past the response"])
async def test_a_connection_that_cannot_carry_another_request_is_not_reused(lean, reply):
    connections: list[int] = []
    async with raw_server(one_reply_per_connection([reply, OK], connections)) as base:
        await lean.request("GET", base + "/")
        assert (await lean.request("GET", base + "/")).body == b"ok"
    assert len(connections) == 2


async def test_bytes_that_come_while_a_connection_is_idle_keep_it_from_reuse(lean):
    connections: list[int] = []

    async def serve(reader, writer):
        connections.append(1)
        await answer(reader, writer, OK)
        await asyncio.sleep(0.05)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstale")  # unasked
        await writer.drain()
        await answer(reader, writer, OK)
        await reader.read()

    async with raw_server(serve) as base:
        await lean.request("GET", base + "/")
        await asyncio.sleep(0.2)
        assert (await lean.request("GET", base + "/")).body == b"ok"  # not "stale"
    assert len(connections) == 2


async def test_a_cancelled_request_leaves_no_connection_to_reuse(lean):
    connections: list[int] = []
    replied = asyncio.Event()

    async def serve(reader, writer):
        connections.append(1)
        await read_request(reader)
        await replied.wait()  # the first request is cancelled before this reply
        writer.write(OK)
        await writer.drain()
        await answer(reader, writer, OK)
        await reader.read()

    async with raw_server(serve) as base:
        waiting = asyncio.ensure_future(lean.request("GET", base + "/"))
        await asyncio.sleep(0.05)
        waiting.cancel()
        replied.set()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        replied.clear()
        second = asyncio.ensure_future(lean.request("GET", base + "/"))
        await asyncio.sleep(0.05)
        replied.set()
        assert (await second).body == b"ok"  # its own reply, on a new connection
    assert len(connections) == 2


async def test_a_request_past_its_time_is_a_timeout_error(lean, monkeypatch):
    monkeypatch.setattr(lean_http, "TOTAL_TIMEOUT_S", 0.1)

    async def serve(reader, writer):
        await read_request(reader)
        await reader.read()  # never answers

    async with raw_server(serve) as base:
        with pytest.raises(TimeoutError):
            await lean.request("POST", base + "/", body=b"{}")
    assert not any(lean._idle.values())


async def test_a_request_on_a_connection_already_lost_is_refused_at_once(lean):
    connections: list[int] = []
    async with raw_server(one_reply_per_connection([OK], connections)) as base:
        await lean.request("GET", base + "/")
        (kept,) = lean._idle[split_url(base)[0]]
        kept.transport.close()
        while not kept.closed:  # lost: nothing will ever answer on it
            await asyncio.sleep(0.01)
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await asyncio.wait_for(kept.exchange(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"), 5)


async def test_a_host_name_is_looked_up_once_for_many_connections(lean, monkeypatch):
    looked_up: list[str] = []
    loop = asyncio.get_running_loop()
    real = loop.getaddrinfo

    async def getaddrinfo(host, *args, **kwargs):
        looked_up.append(host)
        return await real(host, *args, **kwargs)

    app, connections = counting_app()
    async with site(app) as base:
        monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)
        await asyncio.gather(*(lean.request("GET", base + "/") for _ in range(4)))
    assert len(set(map(id, connections))) == 4 and looked_up.count("localhost") == 1


async def test_closing_closes_connections_with_a_request_under_way(lean):
    async def serve(reader, writer):
        await read_request(reader)
        await reader.read()

    async with raw_server(serve) as base:
        under_way = asyncio.ensure_future(lean.request("POST", base + "/", body=b"{}"))
        await asyncio.sleep(0.05)
        lean.close()
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await under_way


def test_a_head_request_is_refused_plainly(lean):
    with pytest.raises(ValueError, match="HEAD"):
        asyncio.run(lean.request("HEAD", "http://127.0.0.1:1/"))


@pytest.mark.parametrize(("url", "parts"), [
    ("https://discord.com/api/v10/x?y=1", (("https", "discord.com", 443), "discord.com",
                                           "/api/v10/x?y=1")),
    ("http://127.0.0.1:8123/api", (("http", "127.0.0.1", 8123), "127.0.0.1:8123", "/api")),
    ("http://[::1]:8000/", (("http", "::1", 8000), "[::1]:8000", "/")),
])
def test_a_url_splits_into_origin_host_and_path(url, parts):
    assert split_url(url) == parts

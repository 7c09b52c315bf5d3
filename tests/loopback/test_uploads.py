"""Files a bot uploads (multipart/form-data, as discord.py sends them) reach the loopback byte
for byte, with their JSON payload, however the network cuts the body, and reading them warns
of nothing: aiohttp's own multipart reader, handed a part in pieces smaller than its boundary,
used a deprecated call of its stream (a DeprecationWarning in a two-process test's run)."""

from __future__ import annotations

import asyncio
import random
import warnings
from unittest import mock

from aiohttp import streams
from aiohttp.test_utils import make_mocked_request

from loopback.rest import read_body

BOUNDARY = "d1sc0rdpy"


def multipart(parts: list[tuple[str, str | None, bytes, str]]) -> bytes:
    """A multipart/form-data body as discord.py's (aiohttp's FormData) makes one."""
    out = b""
    for name, filename, data, content_type in parts:
        disposition = f'form-data; name="{name}"' + (
            f'; filename="{filename}"' if filename else "")
        out += (f"--{BOUNDARY}\r\nContent-Type: {content_type}\r\n"
                f"Content-Disposition: {disposition}\r\n\r\n").encode() + data + b"\r\n"
    return out + f"--{BOUNDARY}--\r\n".encode()


class Trickle(streams.StreamReader):
    """A body as the network may hand it: every other read gives only a few bytes (fewer
    than a multipart boundary), the next as many as asked."""

    _short = False

    async def read(self, n: int = -1) -> bytes:
        self._short = not self._short
        return await super().read(min(n, 3) if self._short and n > 0 else n)


async def test_an_upload_cut_in_small_pieces_arrives_whole_and_warns_of_nothing() -> None:
    picture = random.Random(7).randbytes(50_000)
    body = multipart([("payload_json", None, b'{"content": "the table"}', "application/json"),
                      ("files[0]", "table.png", picture, "image/png")])
    stream = Trickle(mock.Mock(_reading_paused=False), 2**16, loop=asyncio.get_running_loop())
    stream.feed_data(body)
    stream.feed_eof()
    request = make_mocked_request(
        "POST", "/api/v10/channels/1/messages", payload=stream,
        headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                 "Content-Length": str(len(body))})

    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        payload, files = await read_body(request)
    assert payload == {"content": "the table"}
    assert [(f.field, f.filename, f.data, f.content_type) for f in files] == [
        ("files[0]", "table.png", picture, "image/png")]
    assert not [str(w.message) for w in heard if issubclass(w.category, DeprecationWarning)]

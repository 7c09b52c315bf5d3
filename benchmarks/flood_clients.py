"""The flood of benchmarks.flood: web clients in a process of their own, as an attacker (or a
crowd) on other machines would be. Not a benchmark by itself.

    python -m benchmarks.flood_clients BASE_URL SECONDS CLIENTS ADDRESSES PATH [PATH ...]

Each client is one aiohttp session bound to its own loopback address (a TCPConnector with
`local_addr`), asking one page after another (a closed loop: a new request as soon as the
last one is answered), each a random one of PATHs. ADDRESSES: "distinct" gives client n the
address 127.0.0.(10 + n), "one" gives them all 127.0.0.9. Prints "go" once every client is
connected and the flood starts, then, after SECONDS, one line of JSON: every answer's status
and its time in ms.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time

import aiohttp
import uvloop

NICE = 10  # below the bot's process: on two cores it stands in for clients elsewhere


def address(n: int, addresses: str) -> str:
    return f"127.0.0.{10 + n}" if addresses == "distinct" else "127.0.0.9"


async def one_client(http: aiohttp.ClientSession, paths: list[str], stop: float,
                     rng: random.Random, answers: list[tuple[int, float]]) -> None:
    while time.perf_counter() < stop:
        start = time.perf_counter()
        try:
            async with http.get(rng.choice(paths), allow_redirects=False) as response:
                await response.read()
                status = response.status
        except aiohttp.ClientError:
            status = 0  # refused or reset: counted, never retried at once
        answers.append((status, round((time.perf_counter() - start) * 1000, 2)))


async def flood(base: str, seconds: float, clients: int, addresses: str,
                paths: list[str]) -> list[tuple[int, float]]:
    sessions = [aiohttp.ClientSession(base, connector=aiohttp.TCPConnector(
        local_addr=(address(n, addresses), 0), limit=1)) for n in range(clients)]
    answers: list[tuple[int, float]] = []
    try:
        for http in sessions:  # connected before the clock starts
            async with http.get("/static/site.css") as response:
                await response.read()
        print("go", flush=True)
        stop = time.perf_counter() + seconds
        await asyncio.gather(*(one_client(http, paths, stop, random.Random(n), answers)
                               for n, http in enumerate(sessions)))
    finally:
        for http in sessions:
            await http.close()
    return answers


def main(argv: list[str]) -> int:
    base, seconds, clients, addresses, *paths = argv
    os.nice(NICE)
    answers = uvloop.run(flood(base, float(seconds), int(clients), addresses, paths))
    print(json.dumps(answers), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""What an interaction's requests cost the bot's CPU: discord.py's webhook adapter over aiohttp's
session, against LamaBot's (cogs/answer_adapter.py over cogs/lean_http.py), side by side.

    python -m benchmarks.answer_http [--requests 3000] [--rounds 3] [--at-once 8]

A server in a process of its own answers as Discord does (its headers, a rate limit bucket,
Cloudflare's cookies): a move's answer (POST .../callback?with_response=1, the hand's JSON
back), the turn ping's edit (PATCH .../messages/@original) and the older hand's delete
(DELETE, 204). The client's process CPU time over the requests, per request; each round runs
both paths, one after the other, in a fresh order. Issue 33, point 4.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord.http
import uvloop
from aiohttp import web
from discord.webhook.async_ import AsyncWebhookAdapter

from cogs.answer_adapter import AnswerAdapter, use_lean_http
from cogs.lean_http import LeanHttp

OUT = Path(__file__).with_name("answer_http.json")
APPLICATION = 1_000_000_000_000_000_001
HAND = {"content": "", "flags": 64, "components": [
    {"type": 1, "components": [
        {"type": 2, "style": 3, "label": f"Card {n} ×2", "custom_id": f"lama:h:1:2:3:{n}",
         "emoji": {"id": "1300000000000000000", "name": f"lama_{n}"}, "disabled": False}
        for n in range(row * 5, row * 5 + 5)]} for row in range(3)],
    "embeds": [{"title": "Your hand", "description": "It's your turn. " * 8, "color": 16738740}]}


def discord_headers() -> dict[str, str]:
    return {
        "X-RateLimit-Bucket": "a06de6a3c9ab1c9e7a1ee6d5bb1c9a9e", "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "4", "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000", "Via": "1.1 google", "CF-Cache-Status": "DYNAMIC",
        "Server": "cloudflare", "CF-RAY": "8f2a1c3b4d5e6f70-FRA", "Alt-Svc": 'h3=":443"',
        "Strict-Transport-Security": "max-age=31536000; includeSubDomains; preload",
        "X-Content-Type-Options": "nosniff", "Set-Cookie": "__cfruvid=0123456789abcdef; "
        "path=/; domain=.discord.com; HttpOnly; Secure; SameSite=None"}


def serve(port_out: Any) -> None:
    """The server's process: Discord's answers to the three requests."""
    message = {"id": "1300000000000000001", "channel_id": "1300000000000000002",
               "type": 20, "flags": 64, "content": "", "embeds": HAND["embeds"],
               "components": HAND["components"], "timestamp": "2026-12-05T12:00:00+00:00"}

    async def callback(request: web.Request) -> web.Response:
        await request.read()
        return web.json_response(
            {"interaction": {"id": request.match_info["id"], "type": 2},
             "resource": {"type": 4, "message": message}}, headers=discord_headers())

    async def edit(request: web.Request) -> web.Response:
        await request.read()
        return web.json_response(message, headers=discord_headers())

    async def delete(_request: web.Request) -> web.Response:
        return web.Response(status=204, headers=discord_headers())

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
        app.router.add_patch("/api/v10/webhooks/{app}/{token}/messages/@original", edit)
        app.router.add_delete("/api/v10/webhooks/{app}/{token}/messages/@original", delete)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port_out.send(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        await asyncio.Event().wait()

    uvloop.run(main())


async def one_interaction(adapter: AsyncWebhookAdapter, session: aiohttp.ClientSession,
                          n: int) -> None:
    """A move's three requests with its token: the answer, the ping's edit, a delete."""
    token = f"aW50ZXJhY3Rpb246{n:012d}"
    params = discord.http.handle_message_parameters(**{  # type: ignore[arg-type]
        k: v for k, v in HAND.items() if k == "content"})
    params.payload.update({k: HAND[k] for k in ("flags", "components", "embeds")})
    await adapter.create_interaction_response(
        n, token, session=session,
        params=discord.http.MultipartParameters({"type": 4, "data": params.payload}, None, []))
    await adapter.edit_original_interaction_response(
        APPLICATION, token, session=session, payload={"components": HAND["components"]})
    await adapter.delete_original_interaction_response(APPLICATION, token, session=session)


async def measure(adapter: AsyncWebhookAdapter, session: aiohttp.ClientSession,
                  interactions: int, at_once: int) -> dict[str, float]:
    numbers = itertools.count()

    async def worker() -> None:
        for n in iter(lambda: next(numbers), None):
            if n >= interactions:
                return
            await one_interaction(adapter, session, n)

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(at_once)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    requests = interactions * 3
    return {"cpu_us_per_request": round(cpu / requests * 1e6, 1),
            "requests_per_s": round(requests / wall)}


async def run(args: argparse.Namespace, port: int) -> dict[str, Any]:
    real_base, discord.http.Route.BASE = discord.http.Route.BASE, f"http://127.0.0.1:{port}/api/v10"
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    lean = LeanHttp("DiscordBot (benchmark)")
    use_lean_http(session, lean)
    paths = {"discord.py over aiohttp": AsyncWebhookAdapter(), "LamaBot's": AnswerAdapter()}
    rounds: list[dict[str, dict[str, float]]] = []
    try:
        for adapter in paths.values():  # warm-up: connections, imports, caches
            await measure(adapter, session, min(200, args.requests), args.at_once)
        for number in range(args.rounds):
            order = random.sample(list(paths), len(paths))
            figures = {name: await measure(paths[name], session, args.requests // 3,
                                           args.at_once) for name in order}
            rounds.append(figures)
            print(f"  round {number + 1}: " + "; ".join(
                f"{name} {f['cpu_us_per_request']} µs CPU a request ({f['requests_per_s']}/s)"
                for name, f in figures.items()), flush=True)
    finally:
        lean.close()
        await session.close()
        discord.http.Route.BASE = real_base
    ratio = [r["LamaBot's"]["cpu_us_per_request"] / r["discord.py over aiohttp"][
        "cpu_us_per_request"] for r in rounds]
    return {"requests_per_round": args.requests // 3 * 3, "at_once": args.at_once,
            "rounds": rounds, "cpu_ratio_each_round": [round(r, 3) for r in ratio]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.answer_http",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000, help="per path and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--at-once", type=int, default=8, help="interactions in flight")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    receive, send = multiprocessing.Pipe(duplex=False)
    server = multiprocessing.get_context("spawn").Process(target=serve, args=(send,),
                                                          daemon=True)
    server.start()
    try:
        port = receive.recv()
        result = uvloop.run(run(args, port))
    finally:
        server.terminate()
        server.join()
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

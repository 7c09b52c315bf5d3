"""Data and servers for the web pages' tests: games really played through GameService (so
replays replay), a hostile player name, and the site served on a free loopback port."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from hosting import FakeClock, GameOptions, GameService, Preferences, Status
from hosting.site import SiteService
from hosting.stats import StatsService
from store import Store
from web import GuildProfile, Paths, SiteDeps, WebServer
from web.limits import RequestLimits

GUILD, OTHER_GUILD = 5000, 6000
HOSTILE = '<script>alert("lama")</script>'


@dataclass
class World:
    store: Store
    clock: FakeClock
    service: GameService
    stats: StatsService
    site: SiteService
    locale: str = "en"
    server_name: str = "Llama Lounge"  # GUILD's; OTHER_GUILD has none

    def deps(self) -> SiteDeps:
        async def profile(guild_id: int) -> GuildProfile:
            return GuildProfile(self.server_name if guild_id == GUILD else None, self.locale)

        return SiteDeps(self.stats, self.site, profile)


async def open_world(path, *, seed: int = 17) -> World:
    store = await Store.open(path)
    clock = FakeClock(1_790_000_000)
    seeds = random.Random(seed)
    preferences = Preferences(store, clock)
    service = GameService(store, clock, seed_source=lambda: seeds.getrandbits(40),
                          preferences=preferences)
    stats = StatsService(store, clock, preferences=preferences)
    service.add_listener(stats.on_game_update)  # as the bot: a finished game, fresh boards
    return World(store, clock, service, stats, SiteService(store, clock))


async def play_game(
    w: World, players: list[tuple[int, str]], *, guild: int = GUILD, ai_seats: int = 0,
    variant: str = "classic", target: int = 10, rng: random.Random | None = None,
    finish: bool = True, leaver: int | None = None,
) -> int:
    """A game through the service: humans move at random (legal), AIs by their timers.
    `leaver`: that player leaves at once (an AI plays their seat to the end)."""
    rng = rng or random.Random(players[0][0])
    options = GameOptions(variant=variant, target=target, turn_timeout=60, ai_delay=0,
                          ai_level="easy")
    (host, host_name), others = players[0], players[1:]
    update = await w.service.open_lobby(guild, guild + 1, host, host_name, options,
                                        ai_seats=ai_seats)
    game_id = update.view.game_id
    for user, name in others:
        await w.service.join(game_id, user, name)
    await w.service.start(game_id, host)
    if leaver is not None:
        await w.service.leave(game_id, leaver)
    for moves in range(5000):
        view = w.service.view(game_id)
        if view.status is Status.FINISHED or (not finish and moves == 6):
            break
        w.clock.advance(7)
        seat = view.seats[view.current_seat]
        if seat.is_ai:
            assert await w.service.fire_due_timers()
            continue
        obs = w.service.observation(game_id, seat.user_id)
        if obs.legal_plays and rng.random() < 0.85:
            await w.service.play(game_id, seat.user_id, rng.choice(obs.legal_plays))
        elif obs.can_draw and rng.random() < 0.7:
            await w.service.draw(game_id, seat.user_id)
        else:
            await w.service.quit_round(game_id, seat.user_id)
    assert (w.service.view(game_id).status is Status.FINISHED) == finish
    w.clock.advance(600)
    return game_id


@asynccontextmanager
async def served(w: World, limits: RequestLimits | None = None) -> AsyncIterator[WebServer]:
    """The site on a free loopback port (with `limits`, else the site's own)."""
    server = WebServer(w.deps(), host="127.0.0.1", port=0, limits=limits)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@asynccontextmanager
async def serving(w: World, limits: RequestLimits | None = None) -> AsyncIterator[str]:
    """The site on a free loopback port; yields its base URL."""
    async with served(w, limits) as server:
        yield f"http://127.0.0.1:{server.port}"


async def public_world(path) -> World:
    """A world whose server has one finished game (Alice against Bob, `w.game`) and a public
    site (`w.paths`, by the server's id)."""
    w = await open_world(path)
    w.game = await play_game(w, [(1, "Alice"), (2, "Bob")])  # type: ignore[attr-defined]
    await w.site.update_access(GUILD, public=True)
    w.paths = Paths(str(GUILD))  # type: ignore[attr-defined]
    return w

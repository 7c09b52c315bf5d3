"""The game service: the one door through which interfaces host games.

`GameService` is a thin facade over parts with one job each (docs/architecture.md):
- `GameRegistry` (registry.py): the games in memory, their channels, routing, seat locks;
- `Lobby` (lobby.py): opening, seats, start, rematch;
- `Moderation` (moderation.py): kick and cancel, and who may;
- `Table` (table.py): the moves, each committed before it is told;
- `Turns` (turns.py) over `TimerQueue` (timers.py): AI turns, reminders, time-outs;
- `TimerSweeper` (sweeper.py): due timers a dead process left, taken up here;
- `Preferences` (preferences.py): server settings and every language choice;
- `MessageRefs` (messages.py): where the interface put each game's messages;
- `Outbox` (outbox.py): what committed changes are not shown yet, after a crash too;
- `Playable` (playable.py): the cards a player may play where they type, or why none;
- `Routes` (routes.py): which game a command from a channel or a DM is about;
- `GameWatch` (watch.py): what live views (the Activity) show, kept up with other processes;
- `options` (options.py): every limit and list, and the one `validate`.
Nothing is announced that is not committed; listeners hear every committed change.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import TypeVar

from lama import Card, Observation
from lama.actions import Action
from store import Dialect, GuildSettings, Store
from store.tournaments import TableKey

from .clock import Clock
from .context import Context
from .hosted import HostedGame, Seat
from .listeners import Listener, Listeners
from .loader import GameLoader
from .lobby import Lobby
from .messages import MessageRefs
from .moderation import Moderation
from .options import TIMEOUTS_BEFORE_AI
from .outbox import Outbox
from .playable import CardsHere, Playable
from .preferences import Preferences
from .registry import GameRegistry, seat_of
from .routes import Routes
from .sweeper import TimerSweeper
from .table import Table
from .timers import TimerQueue
from .turns import Turns
from .views import TABLE, GameOptions, GameUpdate, GameView, MessageKey, ShownBy, Status
from .watch import GameWatch

__all__ = ["TIMEOUTS_BEFORE_AI", "GameService"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class GameService:
    """Owns the running games of one bot process, keyed by game id."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        seed_source: Callable[[], int] | None = None,
        preferences: Preferences | None = None,
        shared: bool | None = None,
    ) -> None:
        """`shared`: other processes write this database too, so what a player is shown
        before they move is first checked against the stored game (loader.py `fresh`);
        None: where it is PostgreSQL."""
        self._store = store
        self._clock = clock
        self.registry = GameRegistry()
        self.preferences = preferences or Preferences(store, clock)
        self.timers = TimerQueue(clock)
        self.listeners = Listeners()
        self.messages = MessageRefs(store)
        context = Context(store, clock, self.registry, self.timers, self.listeners)
        if shared is None:
            shared = store.db.dialect is Dialect.POSTGRESQL
        self.loader = GameLoader(context, shared=shared)  # games another process opened or moved
        self.table = Table(context, self.loader)
        self.turns = Turns(context, self.table, self.loader)
        self.sweeper = TimerSweeper(store, clock, self.loader)  # games whose process died
        seeds = seed_source or (lambda: random.SystemRandom().getrandbits(62))
        self.lobby = Lobby(context, self.table, self.loader, seeds)
        self.moderation = Moderation(context, self.table, self.lobby)  # kick, cancel
        self.outbox = Outbox(store, clock, self.registry, self.loader, self.messages, self.table)
        self.playable = Playable(self.registry, self.loader)  # what /play may offer here
        self.routes = Routes(store, self.registry, self.loader)  # which game a place means
        self.watch = GameWatch(store, self.registry, self.loader)  # what live views show

    def add_listener(self, listener: Listener) -> None:
        self.listeners.add(listener)

    async def restore(self, hosts: Callable[[int], bool] | None = None) -> list[GameView]:
        """Load every unfinished game from the store (of the servers `hosts` says this
        process serves: its shards), re-arming timers and AI turns."""
        restored = []
        for record in await self._store.games.unfinished_games():
            if hosts is not None and not hosts(record.guild_id):
                continue  # another process's server; loaded here only if a move names it
            hosted = HostedGame.from_record(record)
            self.registry.register(hosted)
            if hosted.status is Status.RUNNING:
                self.timers.arm(hosted)
                await self.turns.recall_time_outs(hosted)
            restored.append(hosted.view())
        for guild_id in {view.guild_id for view in restored}:
            await self.preferences.guild_settings(guild_id)  # their language, … without a wait
        return restored

    # --------------------------------------------------------------- settings

    async def guild_defaults(self, guild_id: int) -> GameOptions:
        return await self.preferences.guild_defaults(guild_id)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.preferences.guild_settings(guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.preferences.save_guild_settings(settings)

    def cached_guild_locale(self, guild_id: int | None) -> str | None:
        return self.preferences.cached_guild_locale(guild_id)

    def check_channel_allowed(self, guild_id: int, channel_id: int) -> None:
        self.preferences.check_channel_allowed(guild_id, channel_id)

    # ---------------------------------------------------------------- queries

    def view(self, game_id: int) -> GameView:
        return self.registry.get(game_id).view()

    async def guild_of_game(self, game_id: int) -> int | None:
        """The server a game is played in (None: no such game): from memory, else as stored
        (a finished game, or another process's)."""
        hosted = self.registry.find(game_id)
        if hosted is not None:
            return hosted.guild_id
        record = await self._store.games.get_game(game_id)
        return record.guild_id if record is not None else None

    def game_in_channel(self, channel_id: int) -> GameView | None:
        hosted = self.registry.in_channel(channel_id)
        return hosted.view() if hosted else None

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        return await self.routes.active_game_in_channel(channel_id)

    async def on_channel_game(self, channel_id: int, command: Callable[[int], Awaitable[T]]) -> T:
        return await self.routes.on_channel_game(channel_id, command)

    def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameView]:
        return self.registry.active_games_of(user_id, guild_id)

    def route(self, user_id: int, channel_id: int | None, guild_id: int | None) -> GameView:
        return self.registry.route(user_id, channel_id, guild_id)

    async def find_route(
        self, user_id: int, channel_id: int | None, guild_id: int | None
    ) -> GameView:
        return await self.routes.find(user_id, channel_id, guild_id)

    async def fresh_game(self, game_id: int) -> None:
        """Before showing a hand from a button that names its game (the table's My hand):
        this copy brought up to the stored game where another process may have moved it
        (loader.py `fresh`); a hand routed by `find_route` is already."""
        await self.loader.fresh(self.registry.find(game_id))

    def observation(self, game_id: int, user_id: int) -> Observation:
        self.registry.refuse_lobby_bystander(game_id, user_id)
        hosted = self.registry.running(game_id)
        return hosted.running_game.observation(seat_of(hosted, user_id).index)

    async def button_observation(
        self, game_id: int, user_id: int, round_number: int
    ) -> Observation:
        return await self.table.button_observation(game_id, user_id, round_number)

    async def playable_here(
        self, user_id: int, channel_id: int | None, guild_id: int | None
    ) -> CardsHere:
        """For the card autocomplete, as a player types: the variant of the game this place
        routes to and the cards the user may play in it now, from memory; where there are
        none, why (playable.py)."""
        return await self.playable.here(user_id, channel_id, guild_id)

    def still_at(self, game_id: int, seq: int) -> bool:
        """Whether the game is running and has not moved since move `seq` (its turn is on)."""
        return self.registry.still_at(game_id, seq)

    def legal_plays(self, game_id: int, user_id: int) -> tuple[Card, ...]:
        """The cards this user may play now: empty unless it is their turn."""
        return self.playable.legal_plays(game_id, user_id)

    async def check_can_play_here(
        self, user_id: int, channel_id: int | None, guild_id: int | None
    ) -> int:
        """The game a /play from this place is about, where the user has a card to play in it
        now (as stored: `find_route`); else the refusal a move would meet, raised (a /play
        with no card picked: the autocomplete's explanation of why it offers none)."""
        game_id = (await self.find_route(user_id, channel_id, guild_id)).game_id
        self.playable.check(game_id, user_id)
        return game_id

    # --------------------------------------------------------------- messages

    def message_ref(self, game_id: int, key: MessageKey) -> tuple[int, int] | None:
        """Where an interface put a game's lobby, table or a seat's hand message."""
        hosted = self.registry.find(game_id)
        return hosted.messages.get(key) if hosted else None

    def table_of_round(self, game_id: int, round_number: int) -> tuple[int, int] | None:
        """The game's table message if it shows that round (or a round not known: stored
        before migration 0017), else None: after a crash the stored table may be the next
        round's already."""
        hosted = self.registry.find(game_id)
        if hosted is None or hosted.table_round not in (None, round_number):
            return None
        return hosted.messages.get(TABLE)

    async def round_table(self, game_id: int, round_number: int) -> tuple[int, int] | None:
        """The message that showed that round's table, however many rounds ago: the game's
        table if it shows that round, else as stored per round (a close retried after a
        storm, or replayed after a crash, once the game's table moved on). None: not known
        (never posted, or posted before migration 0026)."""
        hosted = self.registry.find(game_id)
        if hosted is not None and hosted.table_round == round_number:
            return hosted.messages.get(TABLE)
        return await self._store.games.round_table(game_id, round_number)

    async def remember_message(
        self, game_id: int, key: MessageKey, channel_id: int, message_id: int,
        round_number: int | None = None,
    ) -> None:
        """Note where a message went (showing `round_number`, default: the game's round);
        written behind moves (see hosting/messages.py)."""
        await self.messages.remember(
            self.registry.get(game_id), key, channel_id, message_id, round_number)

    async def rematch_offer(self, game_id: int) -> tuple[int, int] | None:
        """The finished game's "Game over" post, if its Rematch is to be offered again."""
        return await self.lobby.rematch_offer(game_id)

    async def claim_renders(self, *, alone: bool) -> list[GameUpdate]:
        """Committed changes never shown whose process stopped showing them (render outbox;
        `alone`, e.g. at the start of the only process: every one), finished games included,
        as updates for this process to show once."""
        return await self.outbox.claim(alone=alone)

    async def pending_render(self, game_id: int) -> GameUpdate | None:
        """The game's changes this process has not shown, up to its newest state (a retry);
        None: all shown."""
        return await self.outbox.held_of(game_id)

    async def render_shown(self, game_id: int, seqs: Collection[int]) -> None:
        """The interface has shown these moves of the game (0: its deal)."""
        await self.outbox.shown(game_id, seqs)

    async def run_render_repairs(
        self, show: Callable[[list[GameUpdate]], None], showing: Callable[[], Collection[int]]
    ) -> None:
        """With other processes on the database: keep held what this process is `showing`
        (game ids), and hand `show` what a dead process committed and never showed, or a
        render this one lost (outbox.py)."""
        await self.outbox.run(show, showing)

    async def show_in_thread(self, game_id: int, thread_id: int) -> GameView:
        """The game shows itself in this thread from now on; commands used there reach it."""
        hosted = self.registry.get(game_id)
        await self.messages.use_thread(hosted, thread_id)
        self.registry.register(hosted)
        return hosted.view()

    async def flush_message_refs(self) -> None:
        await self.messages.flush()

    async def run_message_writer(self) -> None:
        await self.messages.run_writer()

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: GameOptions,
        ai_seats: int = 0,
    ) -> GameUpdate:
        await self.loader.refresh_games_of(host_id, guild_id)  # ended elsewhere?
        return await self.lobby.open(guild_id, channel_id, host_id, host_name, options, ai_seats)

    async def open_table(
        self, guild_id: int, channel_id: int, entrants: Sequence[Seat], options: GameOptions,
        *, thread_id: int | None, table: TableKey,
    ) -> tuple[int, tuple[int, ...]]:
        return await self.lobby.open_table(guild_id, channel_id, entrants, options,
                                           thread_id=thread_id, table=table)

    async def join(self, game_id: int, user_id: int, name: str) -> GameUpdate:
        lobby = self.registry.find(game_id)
        if lobby is not None:
            await self.loader.refresh_games_of(user_id, lobby.guild_id)
        return await self.loader.changing(lambda: self.lobby.join(game_id, user_id, name))

    async def add_ai(
        self, game_id: int, user_id: int, level: str | None = None, *, is_admin: bool = False
    ) -> GameUpdate:
        return await self.loader.changing(
            lambda: self.lobby.add_ai(game_id, user_id, level, is_admin=is_admin))

    async def leave(self, game_id: int, user_id: int) -> GameUpdate:
        return await self.loader.changing(lambda: self.lobby.leave(game_id, user_id))

    async def kick(
        self,
        game_id: int,
        actor_id: int,
        target_user_id: int,
        *,
        is_admin: bool,
        actor_name: str = "",
    ) -> GameUpdate:
        return await self.loader.changing(lambda: self.moderation.kick(
            game_id, actor_id, target_user_id, is_admin=is_admin, actor_name=actor_name))

    async def cancel(
        self, game_id: int, actor_id: int, *, is_admin: bool, by_tournament: bool = False
    ) -> GameUpdate:
        return await self.loader.changing(lambda: self.moderation.cancel(
            game_id, actor_id, is_admin=is_admin, by_tournament=by_tournament))

    async def start(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameUpdate:
        return await self.loader.changing(
            lambda: self.lobby.start(game_id, user_id, is_admin=is_admin))

    async def rematch(self, game_id: int, user_id: int, name: str) -> GameUpdate:
        old = self.registry.find(game_id)  # None: it ended before a restart, or long ago
        await self.loader.refresh_games_of(user_id, old.guild_id if old else None)
        return await self.loader.changing(lambda: self.lobby.rematch(game_id, user_id, name))

    # ------------------------------------------------------------------ moves

    async def play(
        self, game_id: int, user_id: int, card: Card | str, *, round_number: int | None = None
    ) -> GameUpdate:
        return await self.table.play(game_id, user_id, card, round_number=round_number)

    async def draw(
        self, game_id: int, user_id: int, *, round_number: int | None = None
    ) -> GameUpdate:
        return await self.table.draw(game_id, user_id, round_number=round_number)

    async def quit_round(
        self, game_id: int, user_id: int, *, round_number: int | None = None
    ) -> GameUpdate:
        return await self.table.quit_round(game_id, user_id, round_number=round_number)

    async def human_move(
        self, game_id: int, user_id: int, action: Action, *, round_number: int | None = None,
        shown_by: ShownBy | None = None, interaction_id: int | None = None,
    ) -> GameUpdate:
        return await self.table.human_move(
            game_id, user_id, action, round_number=round_number, shown_by=shown_by,
            interaction_id=interaction_id,
        )

    async def routed_move(
        self, user_id: int, channel_id: int | None, guild_id: int | None, action: Action, *,
        shown_by: ShownBy | None = None, interaction_id: int | None = None,
    ) -> GameUpdate:
        """A move sent from a place (a slash command), to the game that place routes to
        (routes.py)."""
        return await self.routes.on_move_game(
            user_id, channel_id, guild_id, lambda game_id: self.human_move(
                game_id, user_id, action, shown_by=shown_by, interaction_id=interaction_id))

    # ----------------------------------------------------------------- timers

    async def fire_due_timers(self) -> int:
        """Run every timer that is due now; returns how many fired."""
        return await self.turns.fire_due()

    async def run_sweeper(self) -> None:
        """With several processes on one database: take over the timers of games whose
        process stopped firing them (a crash), soon after they fall due."""
        await self.sweeper.run()

    async def run_timers(self) -> None:
        """Fire timers as they fall due, for as long as the service runs."""
        await self.turns.run()

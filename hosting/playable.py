"""Which cards a player may play where they type /play, and why none when there are none.

The card autocomplete asks at every keystroke, so this reads memory only (a channel where
this process holds no game: the store, at most once every few seconds, `channel_game_hint`)
and builds no view; where other processes write the database too, one version read more,
so that the cards offered are those a /play would be allowed (`GameLoader.fresh`). Where
the player has cards to play, that is all it does; only an empty answer looks further, for
the refusal a /play would get (`refusal_to_play`), so the interface can say why instead of
offering nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from lama import Card, IllegalAction, Reason

from .errors import HostingError, Problem
from .hosted import HostedGame
from .loader import GameLoader
from .registry import GameRegistry
from .views import GameView, SeatView, Status

Refusal = HostingError | IllegalAction


@dataclass(frozen=True, slots=True)
class CardsHere:
    """The game's variant ("" where there is none) and the cards the player may play now;
    where there are none, the refusal a /play would get and, when that is "not your turn",
    who is on turn instead (to name them)."""

    variant: str
    cards: tuple[Card, ...]
    refusal: Refusal | None = None
    on_turn: SeatView | None = None


def refusal_to_play(hosted: HostedGame, user_id: int) -> Refusal | None:
    """Why this user can play no card in this game now, as the typed refusal a move would
    meet (in the engine's order: out of the round before not on turn); None: they can."""
    if hosted.status is Status.LOBBY:  # one with no seat in it is not in this game
        seated = hosted.seat_of(user_id) is not None
        return HostingError(Problem.GAME_NOT_STARTED if seated else Problem.NOT_IN_GAME)
    game = hosted.game
    if hosted.status is not Status.RUNNING or game is None or game.is_over:
        return HostingError(Problem.GAME_FINISHED)
    seat = hosted.seat_of(user_id)
    if seat is None:
        return HostingError(Problem.NOT_IN_GAME)
    if game.has_quit(seat.index):
        return IllegalAction(Reason.ALREADY_QUIT, seat.index)
    if game.current_seat != seat.index:
        return IllegalAction(Reason.NOT_YOUR_TURN, seat.index)
    if not game.legal_plays(seat.index):  # on turn, nothing fits: draw or quit
        return IllegalAction(Reason.CARD_NOT_PLAYABLE, seat.index)
    return None


class Playable:
    def __init__(self, registry: GameRegistry, loader: GameLoader) -> None:
        self._registry = registry
        self._loader = loader

    async def here(
        self, user_id: int, channel_id: int | None, guild_id: int | None
    ) -> CardsHere:
        """For the card autocomplete: the game this place routes to (as `Routes.for_move`) and
        the cards the user may play in it now; none, and why."""
        try:
            hosted = await self._game_here(user_id, channel_id, guild_id)
        except HostingError as routed:  # a DM: no running game, or several
            return CardsHere("", (), routed)
        if hosted is None:
            return CardsHere("", (), HostingError(Problem.NO_GAME_HERE))
        variant = hosted.options.variant
        cards = self.legal_plays(hosted.id, user_id)
        if cards:  # the hot path: as before, nothing more is looked at
            return CardsHere(variant, cards)
        refusal = refusal_to_play(hosted, user_id)
        waiting = isinstance(refusal, IllegalAction) and refusal.reason is Reason.NOT_YOUR_TURN
        return CardsHere(variant, (), refusal, _on_turn(hosted) if waiting else None)

    async def _game_here(
        self, user_id: int, channel_id: int | None, guild_id: int | None
    ) -> HostedGame | None:
        """The game this place routes to, brought up to the stored game where another process
        may have moved it (`GameLoader.fresh`): what is suggested is what a move is judged on."""
        if guild_id is None:  # a DM: the caller's only running game (route says which)
            hosted = self._registry.find((await self._dm_route(user_id)).game_id)
        else:
            hosted = await self._loader.channel_game_hint(channel_id) if channel_id else None
        if hosted is None or not self._loader.shared:
            return hosted
        await self._loader.fresh(hosted)
        if hosted.is_active:
            return hosted
        if guild_id is None:  # it ended elsewhere: their other game, if any
            return self._registry.find((await self._dm_route(user_id)).game_id)
        return await self._loader.channel_game_hint(channel_id) if channel_id else None

    async def _dm_route(self, user_id: int) -> GameView:
        """The caller's only running game as this process holds it; where it holds none, as
        the store has them (every DM reaches one process, which may not host their game):
        "no game" is read before it is said, not guessed from memory."""
        try:
            return self._registry.route(user_id, None, None)
        except HostingError as refused:
            if refused.problem is not Problem.NO_GAME_HERE:
                raise
        await self._loader.load_games_of(user_id)
        return self._registry.route(user_id, None, None)

    def legal_plays(self, game_id: int, user_id: int) -> tuple[Card, ...]:
        """The cards this user may play now: empty unless it is their turn."""
        hosted = self._registry.find(game_id)
        if hosted is None or hosted.game is None or hosted.status is not Status.RUNNING:
            return ()
        seat = hosted.seat_of(user_id)
        return hosted.game.legal_plays(seat.index) if seat else ()

    def check(self, game_id: int, user_id: int) -> None:
        """Raise `refusal_to_play` in this process's copy of the game (none held: it is
        over); nothing when the user has a card to play in it now."""
        hosted = self._registry.find(game_id)
        refusal = HostingError(Problem.GAME_FINISHED) if hosted is None else refusal_to_play(
            hosted, user_id)
        if refusal is not None:
            raise refusal


def _on_turn(hosted: HostedGame) -> SeatView | None:
    game = hosted.game
    if game is None or game.is_over or game.current_seat is None:
        return None
    return hosted.seats[game.current_seat].view(game)

"""The moves of running games: a human's, an AI's or the timer's, each committed before it
is told.

One path for every move: take the game's lock, let the engine apply the action to a copy,
commit state and move in one transaction, then swap the copy in and re-arm the timers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace

from lama import DRAW, QUIT, Card, Game, IllegalAction, Observation, Play, Reason, game_to_dict
from lama.actions import Action, action_from_dict, action_to_dict
from lama.events import Event
from store import Actor, FinishedGame, TimerClaim

from .context import Context
from .ended import rating_changes
from .errors import HostingError, Problem
from .hosted import HostedGame
from .loader import GameLoader, MovedElsewhere
from .registry import seat_of
from .results import final_results, stored_result
from .views import GameUpdate, Notice, NoticeKind, RecentEvent, SeatRating, ShownBy, Status

log = logging.getLogger(__name__)

COMMIT_ATTEMPTS = 50  # each failed attempt means another process moved this game meanwhile


class Table:
    def __init__(self, context: Context, loader: GameLoader | None = None) -> None:
        self._store = context.store
        self._registry = context.registry
        self._timers = context.timers
        self._listeners = context.listeners
        self._clock = context.clock
        self._now = context.now
        self._loader = loader or GameLoader(context)

    # ---------------------------------------------------------------- humans

    async def play(
        self, game_id: int, user_id: int, card: Card | str, *, round_number: int | None = None
    ) -> GameUpdate:
        if isinstance(card, str):
            try:
                card = Card.from_code(card)
            except ValueError:
                raise IllegalAction(Reason.CARD_NOT_IN_HAND, None) from None
        return await self.human_move(game_id, user_id, Play(card), round_number=round_number)

    async def draw(
        self, game_id: int, user_id: int, *, round_number: int | None = None
    ) -> GameUpdate:
        return await self.human_move(game_id, user_id, DRAW, round_number=round_number)

    async def quit_round(
        self, game_id: int, user_id: int, *, round_number: int | None = None
    ) -> GameUpdate:
        return await self.human_move(game_id, user_id, QUIT, round_number=round_number)

    async def human_move(
        self, game_id: int, user_id: int, action: Action, *, round_number: int | None = None,
        shown_by: ShownBy | None = None, interaction_id: int | None = None,
    ) -> GameUpdate:
        """A seated human's move; `round_number` comes from a button, to spot stale ones;
        `shown_by` travels in the update to its listeners; `interaction_id` makes the same
        interaction delivered twice one move."""
        await self._loader.hosted(game_id)  # a game another process opened
        try:
            hosted = self._running_for_button(game_id, round_number)
        except HostingError as error:  # a lobby here may have started in another process
            if error.problem is not Problem.GAME_NOT_STARTED:
                raise
            hosted = self._registry.get(game_id)  # the locked attempt checks the stored game
        async with hosted.lock:
            update = await self._human_move_locked(
                hosted, user_id, action, round_number, interaction_id)
            update = replace(update, shown_by=shown_by)
        await self._listeners.publish(update)
        return update

    async def _human_move_locked(
        self, hosted: HostedGame, user_id: int, action: Action, round_number: int | None,
        interaction_id: int | None,
    ) -> GameUpdate:
        """The move on this copy of the game. A copy another process moved past is reloaded
        and the move tried again on the stored state: when the commit finds it behind, or
        whenever this copy would refuse the move (a refusal stands only once the stored
        game is this copy's version)."""
        for _ in range(COMMIT_ATTEMPTS):
            try:
                self._registry.refuse_lobby_bystander(hosted.id, user_id)
                hosted = self._running_for_button(hosted.id, round_number)
                seat = seat_of(hosted, user_id)
                if round_number is not None and round_number != hosted.running_game.round_number:
                    raise HostingError(Problem.STALE_BUTTON)
                update = await self.apply(hosted, seat.index, action, actor=Actor.HUMAN,
                                          interaction_id=interaction_id)
                seat.timeouts_in_a_row = 0
                return update
            except MovedElsewhere:
                continue  # reloaded: try on the stored state
            except (HostingError, IllegalAction):  # judged again on a newer stored game
                if not await self._loader.is_behind(hosted):
                    raise
                await self._loader.reload(hosted)
        raise RuntimeError(f"game {hosted.id} moved on {COMMIT_ATTEMPTS} times during one move")

    async def button_observation(
        self, game_id: int, user_id: int, round_number: int
    ) -> Observation:
        """A seat's private view for a button that asks before it moves (Quit): a button of
        an earlier round or game is stale, exactly as for a move. Like a move, it is asked
        of the stored game: loaded if another process opened it, and a refusal from a copy
        behind it stands only once the copy is reloaded."""
        await self._loader.fresh(await self._loader.hosted(game_id))  # shown before a move
        try:
            return self._observation_for_button(game_id, user_id, round_number)
        except HostingError:
            hosted = self._registry.find(game_id)
            if hosted is None or not await self._loader.is_behind(hosted):
                raise
            async with hosted.lock:
                await self._loader.reload(hosted)
        return self._observation_for_button(game_id, user_id, round_number)

    def _observation_for_button(
        self, game_id: int, user_id: int, round_number: int
    ) -> Observation:
        hosted = self._running_for_button(game_id, round_number)
        if round_number != hosted.running_game.round_number:
            raise HostingError(Problem.STALE_BUTTON)
        return hosted.running_game.observation(seat_of(hosted, user_id).index)

    def _running_for_button(self, game_id: int, round_number: int | None) -> HostedGame:
        """A button names its game: from a finished game it is stale, not an error."""
        try:
            return self._registry.running(game_id)
        except HostingError as error:
            # NO_GAME_HERE: it ended before a restart, and restore() loads only open games.
            ended = (Problem.GAME_FINISHED, Problem.NO_GAME_HERE)
            if round_number is not None and error.problem in ended:
                raise HostingError(Problem.STALE_BUTTON) from None
            raise

    # ---------------------------------------------------------------- commits

    async def apply(
        self,
        hosted: HostedGame,
        seat_index: int,
        action: Action,
        *,
        actor: Actor,
        notices: Iterable[Notice] = (),
        interaction_id: int | None = None,
        claim: TimerClaim | None = None,
    ) -> GameUpdate:
        """Apply one action under the game's lock and commit it. Raises on illegal moves,
        and MovedElsewhere (this copy reloaded) when another process committed first;
        `claim`: a due timer's move, committed only with its claim (else TimerNotClaimed).

        The action is applied to a draft of the game, which replaces the live game only once
        it is committed: whoever looks meanwhile (a view, autocomplete) sees committed state.
        """
        game = hosted.running_game.clone()
        round_number = game.round_number
        events = game.apply(seat_index, action)  # raises IllegalAction, changing nothing
        finished = await self._finished_record(game, hosted, events) if game.is_over else None
        now = self._clock.now()
        deadline = hosted.turn_deadline(now, game)  # the next turn's timer, stored with it
        async with self._loader.reloading(hosted):
            await self._store.games.commit_move(
                hosted.id,
                hosted.seq + 1,
                seat_index,
                action_to_dict(action),
                actor,
                game_to_dict(game),
                int(now),
                round_number=round_number,
                finished=finished,
                interaction_id=interaction_id,
                timer=deadline.row() if deadline else None,
                claim=claim,
            )
        hosted.game, hosted.deadline = game, deadline
        hosted.seq += 1
        hosted.recent.extend(RecentEvent(hosted.seq, event) for event in events)
        if game.is_over:
            hosted.status = Status.FINISHED
            hosted.ratings = await self.rating_changes(hosted.id)
            self._timers.clear(hosted.id)
            self._registry.retire(hosted)
        else:
            self._timers.arm(hosted)
        return GameUpdate(
            view=hosted.view(),
            events=tuple(events),
            notices=tuple(replace(n, seq=hosted.seq) for n in notices),  # about this move
            hands=hosted.hands(),
            actor_seat=seat_index,
            seqs=(hosted.seq,),
        )

    async def _finished_record(
        self, game: Game, hosted: HostedGame, last_events: list[Event]
    ) -> FinishedGame:
        """Replay the stored move log to collect every round's scoring for the records."""
        replay = Game.new(game.ruleset, game.num_seats, game.seed, target=game.target)
        events: list[Event] = []
        for move in await self._store.games.list_moves(hosted.id):
            if move.seat is not None:  # no seat acted (the store allows it; hosting never does)
                events += replay.apply(move.seat, action_from_dict(move.action))
        events += last_events
        return stored_result(final_results(hosted.seats, game.scores, events))

    async def rating_changes(self, game_id: int) -> tuple[SeatRating, ...]:
        """The committed rating changes of a finished game's humans (none if unrated)."""
        return await rating_changes(self._store, game_id)

    async def seat_to_ai(
        self, hosted: HostedGame, user_id: int, *, reason: str, by: str = ""
    ) -> GameUpdate:
        """A human leaves a running game or is kicked (`by` whom): an AI plays on for them.
        Leaving counts as last place; a kicked player is not rated for the game at all."""
        async with hosted.lock:
            self._registry.running(hosted.id)  # it may have ended or been cancelled meanwhile
            seat = seat_of(hosted, user_id)
            game = hosted.running_game
            pending = None if game.has_quit(seat.index) else game.round_number
            deadline = hosted.deadline_after_handover(seat.index, self._clock.now())
            stored = await self._store.games.hand_seat_to_ai(
                hosted.id, seat.index, ai_level="normal", now=self._now(),
                quit_pending_round=pending, timer=deadline.row() if deadline else None,
                kicked=reason == "kicked",
            )
            seat.hand_to_ai(game, stored.left_after_seq, kicked=stored.kicked)
            hosted.deadline = deadline
            self._timers.arm(hosted)
            notice = Notice(NoticeKind.AI_TOOK_OVER, seat.index, user_id, reason, by=by)
            update = GameUpdate(view=hosted.view(), notices=(notice,), hands=hosted.hands())
        await self._listeners.publish(update)
        return update

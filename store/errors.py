"""What the store refuses, as typed errors the hosting layer can map to user messages."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class SchemaTooNew(StoreError):
    """The database was written by newer code; we never downgrade a schema."""

    def __init__(self, db_version: int, code_version: int, path: object = None) -> None:
        self.db_version = db_version
        self.code_version = code_version
        where = f" at {path}" if path is not None else ""
        super().__init__(
            f"the database{where} has schema version {db_version}, but this LamaBot only knows "
            f"versions up to {code_version}: run the newer code (or restore a backup taken "
            "before the upgrade); schemas are never downgraded"
        )


class GameNotFound(StoreError):
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id}")


class WrongGameStatus(StoreError):
    """The game is not in a status that allows the operation (e.g. a move in a lobby)."""

    def __init__(self, game_id: int, status: str, allowed: tuple[str, ...]) -> None:
        self.game_id = game_id
        self.status = status
        self.allowed = allowed
        super().__init__(f"game {game_id} is {status}; this needs {' or '.join(allowed)}")


class LobbyChanged(StoreError):
    """The lobby's seats are not those the caller's copy has: another process seated or
    unseated someone since (a lost update, as SeqConflict is for moves)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id}: the lobby's seats changed")


class ChannelHasActiveGame(StoreError):
    """A channel holds at most one lobby or running game."""

    def __init__(self, channel_id: int, game_id: int) -> None:
        self.channel_id = channel_id
        self.game_id = game_id
        super().__init__(f"channel {channel_id} already has game {game_id}")


class SeqConflict(StoreError):
    """Someone else committed a move first: the caller's state is stale (a lost update)."""

    def __init__(self, game_id: int, expected_seq: int, next_seq: int) -> None:
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.next_seq = next_seq
        super().__init__(
            f"game {game_id}: move {expected_seq} was expected, but the next move is {next_seq}"
        )


class TimerNotClaimed(StoreError):
    """A due timer's move or reminder was not applied: another transaction holds the game's
    row (a peer is firing it), or the row moved on (another move, claim or timer). Nothing
    was written; the caller compares its copy with the stored game."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id}: its due timer was not claimed")


class InteractionAlreadyApplied(StoreError):
    """This interaction's move is already in the move log (delivered twice, or to two
    processes): it is never applied again."""

    def __init__(self, game_id: int, seq: int, interaction_id: int) -> None:
        self.game_id = game_id
        self.seq = seq
        self.interaction_id = interaction_id
        super().__init__(f"interaction {interaction_id} is move {seq} of game {game_id}")


class AlreadySeated(StoreError):
    def __init__(self, game_id: int, user_id: int) -> None:
        self.game_id = game_id
        self.user_id = user_id
        super().__init__(f"user {user_id} already has a seat in game {game_id}")


class LobbyFull(StoreError):
    def __init__(self, game_id: int, max_seats: int) -> None:
        self.game_id = game_id
        self.max_seats = max_seats
        super().__init__(f"game {game_id} already has {max_seats} seats")


class SeatNotFound(StoreError):
    def __init__(self, game_id: int, seat: int) -> None:
        self.game_id = game_id
        self.seat = seat
        super().__init__(f"game {game_id} has no seat {seat}")


class DatabaseUnusable(StoreError):
    """The database cannot be written (a read-only file or folder, no such place, another
    program's lock): the bot must not start on it, so its message is one line for the operator
    that names the path and the fix."""

    def __init__(self, path: object, problem: str, fix: str) -> None:
        self.path = path
        self.problem = problem
        self.fix = fix
        super().__init__(f"the database {path} cannot be written: {problem}. Fix: {fix}")


class StoreBusy(StoreError):
    """Another connection held SQLite's write lock past the busy timeout: nothing was saved,
    and the same request can simply be tried again."""

    def __init__(self, path: object) -> None:
        self.path = path
        super().__init__(f"the database {path} stayed locked by another connection")


class StoreUnwritable(StoreError):
    """The database stopped accepting writes while the bot runs (made read-only, disk full, an
    I/O error): nothing was saved; the operator must act."""

    def __init__(self, path: object, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot write the database {path}: {reason}")

"""The server's history names each game's winner, as the game announced it."""

from cogs.stats_embeds import history_embed
from store.records import GameSummary, PlayerResult


def _result(seat: int, *, place: int, won: bool, is_ai: bool = False) -> PlayerResult:
    return PlayerResult(
        seat=seat,
        user_id=None if is_ai else 100 + seat,
        display_name=f"player{seat}",
        is_ai=is_ai,
        place=place,
        final_score=10 * place,
        won=won,
    )


def test_a_game_won_by_a_seat_an_ai_took_over_still_names_its_winner():
    # The kicked human's seat won with the AI playing on: it counts as a loss for the
    # human's record, but the game had a winner and the history line must name it.
    game = GameSummary(
        game_id=7,
        variant="classic",
        target=40,
        rounds=3,
        finished_at=1_700_000_000,
        players=(_result(0, place=2, won=False), _result(1, place=1, won=False, is_ai=True)),
    )
    line = history_embed([game], "en").description.splitlines()[0]
    assert not line.rstrip().endswith("🏆"), line
    assert "🏆 🤖" in line, line


def test_a_shared_win_names_every_winner():
    game = GameSummary(
        game_id=8,
        variant="party",
        target=40,
        rounds=2,
        finished_at=1_700_000_000,
        players=(_result(0, place=1, won=True), _result(1, place=1, won=True)),
    )
    line = history_embed([game], "en").description.splitlines()[0]
    assert line.endswith("🏆 <@100> and <@101>"), line

"""A hand's buttons (cogs/components.hand_view): Discord's JSON built directly, pressed through
HandButton, each card with its face (an application emoji once known) beside its name."""

from __future__ import annotations

import pytest

import i18n
from cogs.components import HandButton, hand_view
from cogs.emojis import CARD_EMOJIS, FACE_OF_NAME
from hosting.views import GameOptions, GameView, SeatView, Status
from lama import Game


def table(variant: str = "party") -> tuple[GameView, object]:
    game = Game.new(variant, 2, seed=5)
    seat = game.current_seat
    seats = (SeatView(0, "Ann", 101, None), SeatView(1, "Ben", 102, None))
    view = GameView(
        game_id=7, guild_id=1, channel_id=2, host_id=101, status=Status.RUNNING,
        options=GameOptions(variant=variant, target=40, turn_timeout=120), seats=seats,
        round_number=1, top_card=game.top_card.code, draw_pile_size=game.draw_pile_size,
        current_seat=seat,
    )
    return view, game.observation(seat)


def buttons(view, obs, **kwargs) -> list[dict]:
    return [b for row in hand_view(view, obs, "en", **kwargs).to_components()
            for b in row["components"]]


@pytest.fixture
def faces():
    CARD_EMOJIS.learn({name: n for n, name in enumerate(FACE_OF_NAME, 1000)})
    yield CARD_EMOJIS
    CARD_EMOJIS.forget()


def test_a_button_per_distinct_card_with_its_count_then_draw_and_quit():
    view, obs = table()
    shown = buttons(view, obs)
    distinct = sorted(set(obs.hand))
    assert [b["custom_id"].rsplit(":", 1)[1] for b in shown] == [
        *(c.code for c in distinct), "draw", "quit"]
    for button, card in zip(shown, distinct, strict=False):
        count = obs.hand.count(card)
        name = i18n.card_name(card.code, "party", "en")
        assert button["label"] == (f"{name} ×{count}" if count > 1 else name)
        assert button["disabled"] is (card not in obs.legal_plays)


def test_every_hand_button_is_one_hand_button_handles_for_its_owner():
    view, obs = table()
    for button in buttons(view, obs):
        match = HandButton.__discord_ui_compiled_template__.fullmatch(button["custom_id"])
        assert match is not None and int(match["owner"]) == view.seats[obs.seat].user_id


def test_no_row_holds_more_than_five_buttons():
    view, obs = table()
    rows = hand_view(view, obs, "en").to_components()
    assert rows and all(1 <= len(row["components"]) <= 5 for row in rows)


def test_with_the_card_faces_known_each_card_shows_its_face_beside_its_name(faces):
    view, obs = table()
    for button, card in zip(buttons(view, obs), sorted(set(obs.hand)), strict=False):
        face = faces.emoji(card.code, "party")
        assert button["emoji"] == {"name": face.name, "id": face.id}
        assert button["label"].startswith(i18n.card_name(card.code, "party", "en"))


def test_until_the_faces_are_known_cards_show_unicode_emojis():
    view, obs = table()
    assert all("id" not in b["emoji"] for b in buttons(view, obs))


def test_a_quit_waiting_for_its_confirmation_shows_only_yes_and_keep_playing():
    view, obs = table()
    shown = buttons(view, obs, confirm_quit=True)
    assert [b["custom_id"].rsplit(":", 1)[1] for b in shown] == ["quitok", "back"]
    assert [b["label"] for b in shown] == [i18n.t("action.quit.yes", "en"),
                                           i18n.t("action.quit.back", "en")]

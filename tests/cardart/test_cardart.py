"""Card images: valid PNGs, every card drawable, playable cards marked, cached."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import cardart
from cardart import CornerLetters, layout
from cardart import table as table_art
from cardart.codes import VARIANT_CODES

# cardart is handed its corner letters (the bot asks i18n for them); these are Czech's and
# Spanish's, written out so that these tests need nothing but cardart.
CZECH = CornerLetters(llama="L", pink_llama="R", mosquito="K")
SPANISH = CornerLetters(llama="L", pink_llama="R", mosquito="M")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ALL_CODES = [(v, c) for v, codes in VARIANT_CODES.items() for c in sorted(codes)]


def _open(png: bytes) -> Image.Image:
    assert png.startswith(PNG_MAGIC)
    img = Image.open(io.BytesIO(png))
    img.load()  # decodes fully: a truncated or corrupt file raises here
    return img


@pytest.mark.parametrize(("variant", "code"), ALL_CODES)
def test_every_card_renders_in_hand_and_on_table(variant, code):
    hand = _open(cardart.render_hand([code], [code], variant))
    assert hand.size == layout.hand_size(1)
    table = _open(cardart.render_table(code, 10, 3, variant))
    assert table.size == (table_art.TABLE_W, table_art.TABLE_H)


@pytest.mark.parametrize("count", [0, 1, 6, 8, 9, 16, 20])
def test_hand_size_grows_in_rows(count):
    cards = (["1", "2", "3", "4", "5", "6", "L"] * 3)[:count]
    img = _open(cardart.render_hand(cards, [], "classic"))
    assert img.size == layout.hand_size(count)
    if count > layout.PER_ROW:
        assert img.size[1] > layout.hand_size(layout.PER_ROW)[1]


def test_card_sizes_are_exact():
    assert cardart.card_tile("4", "classic").size == (150, 220)
    assert cardart.card_tile("P", "party", width=210).size == (210, 309)


@pytest.mark.parametrize(
    ("cards", "playable", "variant"),
    [
        (["7"], [], "classic"),
        ([""], [], "classic"),
        (["l"], [], "classic"),
        (["0"], [], "classic"),
        (["L+"], [], "party"),
        (["P"], [], "classic"),      # the pink llama is Party only
        (["3+"], [], "komarami"),    # so are plus cards
        (["3"], ["9"], "classic"),   # junk among the playable codes
        (["3"], [], "uno"),
        ([3], [], "classic"),        # an int, not a code
    ],
)
def test_junk_is_rejected(cards, playable, variant):
    with pytest.raises(ValueError):
        cardart.render_hand(cards, playable, variant)


@pytest.mark.parametrize(
    ("top", "pile", "discard", "variant"),
    [("X", 1, 1, "classic"), ("P", 1, 1, "classic"), ("3", -1, 1, "classic"),
     ("3", 1, 0, "classic"), ("3", 1, 1, "nope")],
)
def test_table_junk_is_rejected(top, pile, discard, variant):
    with pytest.raises(ValueError):
        cardart.render_table(top, pile, discard, variant)


def test_different_inputs_give_different_images():
    images = {
        cardart.render_hand(["1", "2", "3"], ["2"], "classic"),
        cardart.render_hand(["1", "2", "4"], ["2"], "classic"),
        cardart.render_hand(["1", "2", "3"], ["3"], "classic"),
        cardart.render_hand(["1", "2", "3"], [], "classic"),
        cardart.render_hand(["1", "2", "3"], [], "classic", highlight=False),
        cardart.render_hand(["3", "2", "1"], ["2"], "classic"),
        cardart.render_hand(["L"], [], "classic"),
        cardart.render_hand(["L"], [], "komarami"),        # a mosquito
        cardart.render_hand(["L"], [], "komarami", CZECH),  # K for komár
        cardart.render_hand(["3+"], [], "party"),
        cardart.render_hand(["P"], [], "party"),
    }
    assert len(images) == 11
    tables = {
        cardart.render_table("4", 20, 5, "classic"),
        cardart.render_table("5", 20, 5, "classic"),
        cardart.render_table("4", 19, 5, "classic"),
        cardart.render_table("4", 20, 6, "classic"),
        cardart.render_table("4", 0, 5, "classic"),
        cardart.render_table("L", 20, 5, "komarami"),
    }
    assert len(tables) == 6


def test_same_inputs_hit_the_cache():
    args = (["6", "L", "1", "1"], {"6", "L"}, "classic", SPANISH)
    first = cardart.render_hand(*args)
    hits = layout.HAND_PNGS.hits
    again = cardart.render_hand(list(args[0]), list(args[1]), "classic", SPANISH)
    assert again is first
    assert layout.HAND_PNGS.hits == hits + 1
    assert cardart.cached_hand(*args) is first
    table = cardart.render_table("2", 12, 4, "party")
    assert cardart.render_table("2", 12, 4, "party") is table
    assert cardart.cached_table("2", 12, 4, "party") is table


def test_cached_lookups_never_draw():
    args = (["5", "5", "4", "3+", "P", "2"], {"4"}, "party", CZECH)
    assert cardart.cached_hand(*args) is None
    png = cardart.render_hand(*args)
    assert cardart.cached_hand(*args) is png
    assert cardart.cached_hand(*args, highlight=False) is None
    assert cardart.cached_table("6+", 17, 23, "party") is None
    with pytest.raises(ValueError):
        cardart.cached_hand(["9"], [], "classic")


def test_png_cache_is_bounded():
    cache = layout.PngCache(3)
    for i in range(5):
        cache.put(i, bytes([i]))
    assert len(cache) == 3
    assert cache.get(0) is None and cache.get(4) == b"\x04"
    assert cache.put(4, b"other") == b"\x04"  # the first drawing wins


def test_a_hand_is_its_cards_cells_pasted_in_place():
    """One shared palette, no per-picture quantise: each card's pre-drawn cell, at its slot."""
    cards = ["1", "2", "3+", "L", "P", "6", "6", "4", "5", "1+"]  # two rows
    playable = {"3+", "P", "1+"}
    img = _open(cardart.render_hand(cards, playable, "party", SPANISH))
    assert img.mode == "P"
    assert img.getpalette() == layout.palette().getpalette()
    for i, code in enumerate(cards):
        face = cardart.tiles.card_face(code, "party", SPANISH)
        state = layout.PLAYABLE if code in playable else layout.DIMMED
        x, top = layout.card_origin(i)
        box = (x - layout.CELL_PAD, top - layout.CELL_PAD)
        box += (box[0] + layout.CELL_W, box[1] + layout.CELL_H)
        assert img.crop(box).tobytes() == layout._cell(face, state).tobytes(), code
    # between and around the cells: felt only
    felt = layout._felt_index()
    assert img.getpixel((2, 2)) == felt
    assert img.getpixel((img.width - 3, img.height - 3)) == felt


def test_output_is_deterministic_from_scratch():
    """The palette is built from a fixed set of cards, so a fresh process draws the same bytes."""
    args = (["2", "L", "6+", "P"], {"L", "P"}, "party", CZECH)
    first = cardart.render_hand(*args)
    table = cardart.render_table("P", 7, 3, "party")
    for fn in (layout._cell, layout._felt_index, layout._empty_hand, layout._table_base):
        fn.cache_clear()
    layout._palette = None
    layout.HAND_PNGS.clear()
    layout.TABLE_PNGS.clear()
    again = cardart.render_hand(*args)
    assert again == first and again is not first
    assert cardart.render_table("P", 7, 3, "party") == table


def test_threads_draw_the_same_pictures():
    from concurrent.futures import ThreadPoolExecutor

    hands = [(["1", "2", "3", str(1 + i % 6), "L"], {"L"}, "classic") for i in range(12)]
    expected = [cardart.render_hand(*h) for h in hands]
    layout.HAND_PNGS.clear()
    with ThreadPoolExecutor(4) as pool:
        drawn = list(pool.map(lambda h: cardart.render_hand(*h), hands * 3))
    assert drawn == expected * 3


def test_pictures_stay_small():
    cards = sorted(VARIANT_CODES["party"])
    assert len(cardart.render_hand(cards[:8], cards[::2], "party")) < 45_000
    assert len(cardart.render_hand(cards + cards[:6], cards[::3], "party")) < 60_000  # 20
    assert len(cardart.render_table("P", 40, 20, "party")) < 30_000


def test_number_cards_look_the_same_in_every_variant_and_language():
    # Keyed by what is drawn: one tile and one cached image serve them all.
    assert cardart.render_hand(["1", "5"], ["5"], "classic") is cardart.render_hand(
        ["1", "5"], ["5"], "komarami", CZECH
    )
    assert cardart.card_tile("6", "classic") is cardart.card_tile("6", "party", SPANISH)


def test_playable_cards_are_raised_and_framed():
    """Shape, not colour: above an unplayable card is felt; above a playable one, its frame."""
    img = _open(cardart.render_hand(["2", "5"], ["5"], "classic")).convert("RGB")
    y = layout.MARGIN + 3  # within a playable card's raised frame, above any lowered card
    x_unplayable = layout.MARGIN + layout.CARD_W // 2
    x_playable = x_unplayable + layout.CARD_W + layout.GAP
    felt = img.getpixel((2, 2))
    assert img.getpixel((x_unplayable, y)) == felt
    assert img.getpixel((x_playable, y)) != felt
    # the tick badge hangs below the playable card only
    badge_y = layout.MARGIN + layout.CARD_H + 5
    assert img.getpixel((x_playable, badge_y)) != felt


def test_plain_hand_marks_nothing():
    a = _open(cardart.render_hand(["2", "5"], ["5"], "classic", highlight=False))
    left, right = (a.crop((x, 0, x + layout.CARD_W, a.height)).tobytes() for x in (
        layout.MARGIN, layout.MARGIN + layout.CARD_W + layout.GAP))
    assert left != right  # different cards...
    b = _open(cardart.render_hand(["2", "5"], [], "classic", highlight=False))
    assert a.tobytes() == b.tobytes()  # ...but the playable set is ignored


def test_warm_up_fills_the_tile_cache():
    cardart.warm_up(letters for letters in (CZECH, SPANISH))  # any iterable, even a generator
    before = cardart.tiles.face_tile.cache_info().misses
    cardart.render_hand(["1", "2", "3+", "P", "L"], ["P"], "party", CZECH)
    cardart.render_table("L", 0, 30, "komarami", SPANISH)
    assert cardart.tiles.face_tile.cache_info().misses == before


def test_the_corner_letters_are_the_ones_handed_in():
    """The default is English; other letters draw other llamas, the same letters the same."""
    english = cardart.render_hand(["L"], [], "komarami")
    assert english is cardart.render_hand(["L"], [], "komarami", CornerLetters())
    assert cardart.render_hand(["L"], [], "komarami", CZECH) != english  # K, not M
    assert cardart.tiles.card_face("L", "komarami", CZECH) == ("mosquito", "K")
    assert cardart.tiles.card_face("P", "party", CZECH) == ("pink_llama", "R")
    assert cardart.tiles.card_face("L", "party", CZECH) == ("llama", "L")


def test_languages_with_the_same_letters_share_their_pictures():
    """Keyed by the letters drawn, not by who asked: Spanish's mosquito is English's M."""
    assert cardart.render_hand(["L", "2"], ["2"], "komarami", SPANISH) is cardart.render_hand(
        ["L", "2"], ["2"], "komarami", CornerLetters(mosquito="M")
    )
    assert cardart.render_table("P", 3, 4, "party", SPANISH) is cardart.render_table(
        "P", 3, 4, "party", CZECH
    )
    assert cardart.cached_table("P", 3, 4, "party", CornerLetters(pink_llama="R")) is not None

"""Draw docs/images/table-message.png: the live table message as Discord shows it (dark theme).

The text and buttons come from the real `cogs.table_view.table_layout` for a sample game and
the picture from `cardart`; only the Discord chrome (fonts, colours, emoji as plain marks) is
imitated. Run: `.venv/bin/python docs/render_table_message.py`.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardart
from cogs.card_letters import corner_letters
from cogs.table_view import table_layout
from hosting.views import GameOptions, GameView, RecentEvent, SeatView, Status
from lama import Card
from lama import events as ev

OUT = Path(__file__).with_name("images") / "table-message.png"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
BACKGROUND, BOX, TEXT, MUTED = (49, 51, 56), (43, 45, 49), (219, 222, 225), (148, 155, 164)
EMOJI = {  # colour emoji the font lacks, as plain marks
    "⚪": "○", "⚫": "●", "▶️": "▶", "▫️": "·", "🚪": "⊘", "➕": "+",
    **{f"{n}\ufe0f\u20e3": "" for n in range(1, 7)},
}


def sample() -> GameView:
    seats = (
        SeatView(0, "Alice", 1, None, card_count=4, score=3),
        SeatView(1, "Bob", 2, None, card_count=6, score=11),
        SeatView(2, "Carol", 3, None, card_count=2, score=0, has_quit=False),
        SeatView(3, "", None, "normal", card_count=5, score=7),
    )
    moves = (
        ev.CardPlayed(0, Card.from_code("3"), 5), ev.CardPlayed(1, Card.from_code("4"), 6),
        ev.CardDrawn(2, 31), ev.CardPlayed(3, Card.from_code("4"), 5),
        ev.CardPlayed(0, Card.from_code("5"), 4),
    )
    recent = tuple(RecentEvent(seq, event) for seq, event in enumerate(moves, start=20))
    return GameView(
        game_id=42, guild_id=1, channel_id=2, host_id=1, status=Status.RUNNING,
        options=GameOptions(variant="classic", target=40), seats=seats, round_number=2,
        top_card="5", draw_pile_size=31, discard_size=9, current_seat=1, recent=recent,
    )


def plain(text: str) -> str:
    for emoji, mark in EMOJI.items():
        text = text.replace(emoji, mark)
    text = re.sub(r"[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F\u20E3]", "", text)
    return text.replace("-# ", "").replace("## ", "")


def main() -> None:
    view = sample()
    layout = table_layout(view, "en", picture=True)
    box = layout.children[0]
    png = cardart.render_table("5", 31, 9, "classic", corner_letters("en"))
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    picture.thumbnail((520, 400))
    width, x = 600, 36
    image = Image.new("RGB", (width, 1100), BACKGROUND)
    draw = ImageDraw.Draw(image)
    regular, bold = ImageFont.truetype(FONT, 15), ImageFont.truetype(BOLD, 15)
    title, small = ImageFont.truetype(BOLD, 20), ImageFont.truetype(FONT, 12)
    y = 24
    draw.rectangle((16, 16, width - 16, 2000), fill=BOX)
    for item in box.children:
        kind = type(item).__name__
        if kind == "TextDisplay":
            for line in item.content.split("\n"):
                font = title if line.startswith("## ") else small if line.startswith("-# ") else (
                    bold if line.startswith("**") else regular)
                colour = MUTED if line.startswith("-# ") else TEXT
                draw.text((x, y), plain(line).replace("**", ""), font=font, fill=colour)
                y += font.size + 8
            y += 6
        elif kind == "MediaGallery":
            image.paste(picture, (x, y))
            y += picture.height + 12
        elif kind == "Separator":
            draw.line((x, y + 4, width - 36, y + 4), fill=(63, 65, 71), width=1)
            y += 14
        elif kind == "ActionRow":
            bx = x
            for button in item.children:
                label = plain(button.item.label or "")
                colour = {1: (88, 101, 242), 4: (218, 55, 60)}.get(button.item.style.value,
                                                                      (78, 80, 88))
                w = int(draw.textlength(label, font=bold)) + 28
                draw.rounded_rectangle((bx, y, bx + w, y + 32), radius=4, fill=colour)
                draw.text((bx + 14, y + 7), label, font=bold, fill=(255, 255, 255))
                bx += w + 8
            y += 46
    draw.rectangle((16, 16, 20, y), fill=(0xF4, 0xD3, 0x5E))  # the container's accent
    image = image.crop((0, 0, width, y + 16))
    image.save(OUT)
    print(OUT)


if __name__ == "__main__":
    main()

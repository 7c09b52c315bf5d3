"""The terminal game, driven by scripted input."""

import io
import re

import pytest

from lama.__main__ import main
from lama.play import play
from lama.rules import CLASSIC, PARTY
from lama.terminal_text import rules_summary, tokens_text


class Console:
    """Collects output; answers prompts from a script, then by a simple strategy or EOF."""

    def __init__(self, script=(), strategy=None):
        self.script = list(script)
        self.strategy = strategy
        self.lines = []
        self.prompts = []

    def output(self, text):
        self.lines.extend(str(text).split("\n"))

    def input(self, prompt):
        self.prompts.append(prompt)
        if self.script:
            answer = self.script.pop(0)
        elif self.strategy is not None:
            answer = self.strategy(self, prompt)
        else:
            raise EOFError
        self.lines.append(prompt + answer)
        return answer

    @property
    def text(self):
        return "\n".join(self.lines)


def first_playable(console, prompt):
    """Play the first card marked playable; else draw when offered; else quit."""
    hand = next(line for line in reversed(console.lines) if line.startswith("Your hand"))
    marked = re.findall(r"(\d+):\S+?\*", hand)
    if marked:
        return f"p {marked[0]}"
    return "d" if "d draw" in prompt else "q"


@pytest.mark.parametrize("variant", ["classic", "party", "komarami"])
def test_a_full_game_to_the_end(variant):
    console = Console(strategy=first_playable)
    code = play(variant, 3, "hard", seed=11, input_fn=console.input, output_fn=console.output)
    assert code == 0
    text = console.text
    assert "=== Game over." in text
    assert "=== Round 1 is over" in text
    assert re.search(r"You play \S+", text)
    assert re.search(r"Alpaca \(hard\) (plays|draws|quits)", text)
    assert "<- on turn" in text
    assert "points (" in text  # scores shown with tokens


def test_bad_input_is_explained():
    # seed 3, party, 2 normal AIs: on our first turn the top card is 2 and our hand is
    # 2 3+ 4 4 6 P (2, 3+ and P playable).
    console = Console(["", "hello there", "9", "p 5", "p", "p L", "xyz", "h", "?", "t", "exit"])
    code = play("party", 2, "normal", seed=3, input_fn=console.input, output_fn=console.output)
    assert code == 1
    text = console.text
    assert "Your hand  1:2*  2:3+*  3:4  4:4  5:6  6:P*" in text
    assert "Type a command" in text
    assert "I don't know 'hello there'" in text
    assert "pick a number from 1 to 6" in text
    assert "You can't play 6 on 2: on a 2 only a 2 or a 3 may follow (or the pink llama)" in text
    assert "Playable now: 2 (#1), 3+ (#2), pink llama (#6)." in text
    assert "Say which card" in text
    assert "You don't have a llama." in text
    assert "I don't know 'xyz'" in text
    assert "Commands on your turn" in text
    assert "Rules (party)" in text
    assert "Bye!" in text


def test_draw_refused_with_the_reason():
    from lama.play import TerminalGame
    from lama.scenario import scenario

    game = scenario("classic", hands=["3 4", "5 6"], top="3", draw="")
    console = Console(["d", "exit"])
    TerminalGame(
        game, [None, _Quitter()], ["You", "Bob"], None, console.input, console.output
    ).run()
    assert "You can't draw: the draw pile is empty. Playable now: 3 (#1), 4 (#2)." in console.text


class _Quitter:
    name = "quitter"

    def choose(self, observation, rng):
        from lama.actions import QUIT

        return QUIT


def test_draw_refused_when_everyone_else_quit():
    from lama.play import TerminalGame
    from lama.scenario import scenario

    game = scenario("classic", hands=["3 4", "5 6"], top="3", draw="6 6", quit=[1])
    console = Console(["d", "exit"])
    TerminalGame(
        game, [None, _Quitter()], ["You", "Bob"], None, console.input, console.output
    ).run()
    assert "everyone else has quit this round" in console.text


def test_eof_and_ctrl_c_leave_cleanly():
    console = Console()
    assert play("classic", 1, "easy", seed=1, input_fn=console.input, output_fn=console.output) == 1
    assert "Bye!" in console.text

    def interrupt(prompt):
        raise KeyboardInterrupt

    out = []
    assert play("classic", 1, "easy", seed=1, input_fn=interrupt, output_fn=out.append) == 1
    assert "Bye!" in out[-1]


def test_setup_prompts_when_options_are_missing():
    console = Console(["party", "7", "2", "wizard", "hard"])
    assert play(seed=5, input_fn=console.input, output_fn=console.output) == 1  # EOF later
    text = console.text
    assert "Please answer one of: 1, 2, 3, 4, 5." in text
    assert "Please answer one of: easy, hard, normal, random." in text
    assert "LAMA (party) to 40 points" in text
    assert "Vicuña (hard)" in text and "Guanaco" not in text


def test_setup_defaults_on_empty_answers():
    console = Console(["", "", ""])
    play(seed=5, input_fn=console.input, output_fn=console.output)
    assert "LAMA (classic) to 40 points" in console.text
    assert "Guanaco (normal)" in console.text


def test_command_line_play(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n" * 200))
    code = main(["play", "--variant", "classic", "--ais", "1", "--level", "normal", "--seed", "2"])
    out = capsys.readouterr().out
    assert "LAMA (classic) to 40 points" in out
    assert code == 0  # quitting every round with a full hand soon ends the game
    assert "=== Game over." in out


def test_tokens_and_rules_text():
    assert tokens_text(27, CLASSIC) == "2 black + 7 white"
    assert tokens_text(27, PARTY) == "1 pink + 7 white"
    assert tokens_text(0, CLASSIC) == "no tokens"
    assert "pink llama" in rules_summary(PARTY)
    assert "pink" not in rules_summary(CLASSIC)

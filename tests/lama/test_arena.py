"""The arena: fair seating, deterministic results whatever the jobs, JSON shape, Wilson."""

import json

import pytest

from lama.__main__ import main
from lama.arena import arena, play_game, wilson_interval


def test_wilson_interval_known_values():
    low, high = wilson_interval(10, 100)
    assert low == pytest.approx(0.05523, abs=1e-4)
    assert high == pytest.approx(0.17437, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    low, high = wilson_interval(0, 10)
    assert high == pytest.approx(0.2775, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_identical_deterministic_policies_tie_exactly_under_rotation():
    # Same deals, seats rotated through a whole block: four `normal`s must do equally well.
    result = arena(["normal"] * 4, 8, 3)
    shares = {s["win_share"] for s in result["seats"]}
    scores = {s["mean_score"] for s in result["seats"]}
    assert len(shares) == 1 and len(scores) == 1


def test_seats_rotate_and_games_finish():
    results = [play_game(["random", "normal", "normal"], g, 5) for g in range(3)]
    for r in results:
        assert max(r.scores) >= 40
        assert any(r.won)
        assert all(r.scores[i] == min(r.scores) for i in range(3) if r.won[i])
    # Same block of deals: the first game seeds the same deal for all three rotations, so
    # the games differ only because seats changed.
    assert len({r.scores for r in results}) > 1


def test_results_do_not_depend_on_jobs():
    one = arena(["random", "normal", "normal"], 12, 7, jobs=1)
    two = arena(["random", "normal", "normal"], 12, 7, jobs=2)
    assert one["seats"] == [
        {
            **s,
            "decision_ms_median": a["decision_ms_median"],
            "decision_ms_p95": a["decision_ms_p95"],
        }
        for s, a in zip(two["seats"], one["seats"], strict=True)
    ]


def test_json_output_shape(capsys):
    assert (
        main(["arena", "--players", "normal,random", "--games", "6", "--seed", "2", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6
    assert isinstance(data["seconds"], float)
    assert [s["policy"] for s in data["seats"]] == ["normal", "random"]
    for s in data["seats"]:
        assert {"policy", "win_share", "ci_low", "ci_high", "mean_score"} <= set(s)
        assert 0 <= s["ci_low"] <= s["win_share"] <= s["ci_high"] <= 1


def test_text_output(capsys):
    assert main(["arena", "--players", "normal,random", "--games", "4", "--target", "20"]) == 0
    out = capsys.readouterr().out
    assert "4 games of classic to 20" in out
    assert "normal" in out and "random" in out


def test_unknown_policy_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["arena", "--players", "normal,wizard"])
    assert "unknown policy wizard" in capsys.readouterr().err

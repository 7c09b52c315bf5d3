"""benchmarks/answer_http.py runs both paths against its Discord-like server: each makes an
interaction's answer, edit and delete, and the figures come out for both."""

from __future__ import annotations

import json

import discord.http

from benchmarks import answer_http
from cogs.lean_http import LeanHttp


def test_both_paths_make_an_interactions_requests_and_are_measured(tmp_path,
                                                                    monkeypatch) -> None:
    lean_requests: list[str] = []
    real = LeanHttp.request

    async def counted(self, method, url, **kwargs):
        lean_requests.append(method)
        return await real(self, method, url, **kwargs)

    monkeypatch.setattr(LeanHttp, "request", counted)
    base = discord.http.Route.BASE
    out = tmp_path / "answer_http.json"
    assert answer_http.main(["--requests", "30", "--rounds", "1", "--at-once", "2",
                             "--out", str(out)]) == 0
    (figures,) = json.loads(out.read_text())["rounds"]
    assert set(figures) == {"discord.py over aiohttp", "LamaBot's"}
    assert all(f["cpu_us_per_request"] > 0 and f["requests_per_s"] > 0
               for f in figures.values())
    assert sorted(set(lean_requests)) == ["DELETE", "PATCH", "POST"]  # LamaBot's is its own
    assert base == discord.http.Route.BASE  # the real Discord's again, for every other test

"""Every relative link in the READMEs and docs/ leads somewhere in the repository.

A newcomer reads README.md and follows its links into docs/; a link to a file that moved, to
a folder beside the checkout, or to a heading that was renamed is a dead end for them. This
reads each page's Markdown links (`[text](path)`, `![alt](path)`, `[text](path#anchor)`,
`[text](#anchor)`) and HTML `src`/`href` attributes, outside code, and checks that the path
is a file or folder inside the repository and that the anchor is a heading of the page it
names (GitHub's heading ids). Links to web addresses are not followed.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The README, docs/, and each top-level package's own README (store/, i18n/, loopback/, ...).
PAGES = sorted(
    [
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(p for p in ROOT.glob("*/README.md") if not p.parent.name.startswith(".")),
    ]
)

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_MD_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_LINK = re.compile(r"""<(?:img|a|source)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, https:, mailto:


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, code spans blanked out."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((number, _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)))
    return out


def links(page: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link on the page, outside code."""
    found = []
    for number, line in _prose_lines(page.read_text(encoding="utf-8")):
        for pattern in (_MD_LINK, _HTML_LINK):
            found += [(number, m.group(1)) for m in pattern.finditer(line)]
    return found


def slug(heading: str) -> str:
    """GitHub's id for a heading: its text (no markup) lower-cased, punctuation dropped,
    spaces turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = []
    for ch in text:
        if ch in " -_" or unicodedata.category(ch)[0] in "LN":
            kept.append("-" if ch == " " else ch)
    return "".join(kept)


def anchors(page: Path) -> set[str]:
    """The ids of a page's headings; a repeated heading gets -1, -2, … as on GitHub."""
    ids: set[str] = set()
    seen: Counter[str] = Counter()
    for _number, line in _prose_lines(page.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2).replace("`", ""))
        ids.add(base if not seen[base] else f"{base}-{seen[base]}")
        seen[base] += 1
    return ids


def broken(page: Path) -> list[str]:
    """What is wrong with the page's links, one line each ("README.md:12: ... ")."""
    problems = []
    where = page.relative_to(ROOT)
    for number, target in links(page):
        if _EXTERNAL.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.is_relative_to(ROOT):
            problems.append(f"{where}:{number}: {target} points outside the repository")
        elif not dest.exists():
            problems.append(f"{where}:{number}: {target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}:{number}: {target}: no heading #{anchor} there")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_or_heading_in_the_repository(page: Path) -> None:
    problems = broken(page)
    assert not problems, "\n".join(problems)


def test_the_checker_finds_links_and_headings_as_github_reads_them(tmp_path: Path) -> None:
    assert slug("The REST budget's pulse (2026-12-01, 21:30–22:50)") == (
        "the-rest-budgets-pulse-2026-12-01-21302250"
    )
    assert slug("What players see survives a crash (the render outbox)") == (
        "what-players-see-survives-a-crash-the-render-outbox"
    )
    assert slug("Running with `store.copy`".replace("`", "")) == "running-with-storecopy"
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n\n## Top\n\n"
        "See [a](b.md#c) and ![pic](img.png \"title\") and <img src=\"x.png\" alt=\"\">.\n"
        "Not `[code](nowhere.md)`, nor [web](https://example.org).\n"
        "```\n[fenced](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert [t for _n, t in links(page)] == ["b.md#c", "img.png", "x.png", "https://example.org"]
    assert anchors(page) == {"top", "top-1"}


def test_the_pages_checked_include_the_readme_and_every_docs_page() -> None:
    names = {str(p.relative_to(ROOT)) for p in PAGES}
    assert {"README.md", "docs/rules.md", "docs/engine.md", "store/README.md"} <= names

"""A real headless browser for the web pages' tests: Debian's chromium, driven by Playwright.

`make test` installs chromium when it is missing; without it the browser tests are skipped
locally and fail in CI (call `require_chromium()` at the top of a browser test module).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("LAMABOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# As root in a container, with no network: no sandbox, nothing fetched in the background.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def require_chromium() -> None:
    """Skip the calling test module without chromium or Playwright (fail in CI instead)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"chromium not found at {CHROMIUM}: `make test` installs it")
        pytest.skip(f"chromium not found at {CHROMIUM} (`make test` installs it)",
                    allow_module_level=True)
    pytest.importorskip("playwright.async_api")


@asynccontextmanager
async def chromium() -> AsyncIterator:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(page, path: str, status: int = 200):
    response = await page.goto(path)
    assert response is not None and response.status == status, path
    return response

"""The browser tests' fixtures: the module's `world` (each browser module builds its own)
served over HTTP, and one chromium per module."""

from __future__ import annotations

import pytest_asyncio

from tests.support.web import serving
from tests.web.browser_support import chromium


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def base_url(world):
    async with serving(world) as url:
        yield url


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as launched:
        yield launched

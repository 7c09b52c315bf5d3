"""The web tests' shared fixtures: the module's `world` (each module builds its own) served
over HTTP, a client of it, and one chromium per module. A module whose world is made per
test defines its own `site`."""

from __future__ import annotations

import aiohttp
import pytest_asyncio

from tests.support.web import serving
from tests.web.browser_support import chromium


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def base_url(world):
    async with serving(world) as url:
        yield url


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(base_url):
    async with aiohttp.ClientSession(base_url) as http:
        yield http


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as launched:
        yield launched

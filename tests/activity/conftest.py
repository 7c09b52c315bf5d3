"""The Activity's browser tests: the app built once per session (by the Makefile's own target),
one chromium per module, and the contract's fake backend behind Discord's proxy."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess

import pytest
import pytest_asyncio

from tests.activity.fake_backend import CLIENT_ID, FakeBackend, serving
from tests.activity.proxy import proxied
from tests.support.code import ROOT
from tests.web.browser_support import chromium


@pytest.fixture(scope="session")
def activity_build() -> None:
    """`make activity`: a no-op when `make test` built it already. One worker builds at a
    time (the lock), the others then find it done."""
    if shutil.which("npm") is None:
        if os.environ.get("CI"):
            raise RuntimeError("npm not found: `make test` installs it")
        pytest.skip("npm not found (`make test` installs Debian's nodejs and npm)")
    lock_path = ROOT / "build" / ".activity.lock"
    lock_path.parent.mkdir(exist_ok=True)
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", "--no-print-directory", "--silent", "activity"], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser(activity_build):
    async with chromium() as launched:
        yield launched


@pytest_asyncio.fixture(loop_scope="module")
async def backend():
    """The fake backend, and the Activity's address through Discord's proxy to it."""
    fake = FakeBackend()
    async with serving(fake.app()) as base, proxied(base) as (url, proxy):
        fake.url, fake.proxy = url + "/", proxy
        yield fake
        await fake.drop()


@pytest.fixture
def client_id() -> str:
    return CLIENT_ID

"""A bot a test starts sees only the environment the test gives it: no `.env`, none of the
shell's bot settings. (A developer's own DATABASE_URL or WEB_PORT must not change a test.)"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

from loopback.running import ENV_FILE_VARIABLE, bot_environment, run_bot_process
from settings import ENV_FILE_VARIABLE as BOTS_ENV_FILE_VARIABLE

REPO = Path(__file__).resolve().parents[2]
NONSENSE = {
    "DATABASE_URL": "postgresql://nobody:nothing@127.0.0.1:1/none",
    "WEB_PORT": "1", "WEB_PUBLIC_URL": "http://nonsense.invalid",
    "SHARD_COUNT": "2", "SHARD_IDS": "1", "DEV_GUILD_ID": "1",
}


def _bot_beside_an_env_file(folder: Path, settings: dict[str, str] = NONSENSE) -> Path:
    """bot.py in `folder` with a `.env` of `settings` beside it (where bot.py looks for one);
    the project's packages still come from the checkout (PYTHONPATH)."""
    shutil.copy(REPO / "bot.py", folder / "bot.py")
    (folder / ".env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    return folder / "bot.py"


def test_the_loopback_names_the_bots_own_env_file_setting():
    assert ENV_FILE_VARIABLE == BOTS_ENV_FILE_VARIABLE


def test_a_bots_environment_carries_none_of_the_shells_bot_settings(monkeypatch):
    for name, value in NONSENSE.items():
        monkeypatch.setenv(name, value)
    env = bot_environment({"DATABASE_PATH": "x.sqlite3"})
    assert not set(NONSENSE) & set(env)
    assert env["DATABASE_PATH"] == "x.sqlite3" and env[ENV_FILE_VARIABLE] == ""


async def test_without_the_setting_bot_py_reads_the_env_file_beside_it(tmp_path):
    """The file really is read where the setting is absent: its SHARD_* stop a SQLite bot."""
    bot = _bot_beside_an_env_file(tmp_path, {"SHARD_COUNT": "2", "SHARD_IDS": "1"})
    env = {k: v for k, v in bot_environment().items() if k != ENV_FILE_VARIABLE}
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(bot), cwd=tmp_path,
        env={**env, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "a-token"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2 and "PostgreSQL" in err.decode(), err.decode()


async def test_a_bot_a_test_starts_ignores_the_env_file_and_the_shells_settings(
        fake_discord, tmp_path, monkeypatch):
    for name, value in NONSENSE.items():
        monkeypatch.setenv(name, value)
    bot = _bot_beside_an_env_file(tmp_path)
    settings = {"DISCORD_TOKEN": "a-token", "DATABASE_PATH": str(tmp_path / "lama.sqlite3"),
                "PYTHONPATH": str(REPO)}
    async with run_bot_process(fake_discord, [sys.executable, str(bot)], env=settings,
                               cwd=tmp_path) as process:
        # Connected at all: the .env's SHARD_IDS on SQLite would have stopped it.
        for _ in range(600):  # until on_ready has logged, after every start-up step
            if "Invite URL" in process.output():
                break
            await asyncio.sleep(0.05)
        assert (tmp_path / "lama.sqlite3").exists()  # SQLite, not the .env's PostgreSQL
        assert "Invite URL" in process.output() and "Web pages" not in process.output()

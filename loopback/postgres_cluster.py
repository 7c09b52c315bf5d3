"""A throwaway PostgreSQL cluster for the tests and benchmarks: initdb into a temporary
folder, a server on a unix socket there (no TCP port), stopped and deleted afterwards.

pg_ctl refuses to run as root, so as root (CI) the server runs as the `postgres` user that
Debian's package creates. `make test` installs the package where the binaries are missing.
"""

from __future__ import annotations

import glob
import os
import pwd
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import asyncpg

# Durability does not matter for a throwaway test cluster; speed does.
FAST = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
# The benchmark's cluster commits like a production server: every commit flushed to disk.
DURABLE = "-c fsync=on -c synchronous_commit=on"


class PostgresMissing(RuntimeError):
    pass


def server_bindir() -> Path | None:
    """The folder of initdb and pg_ctl: `pg_config --bindir`, else Debian's usual place."""
    candidates = []
    if shutil.which("pg_config"):
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        candidates.append(found.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


@dataclass
class PostgresCluster:
    bindir: Path
    root: Path
    port: int
    user: str | None  # the account the server runs as; None: this process's own

    @property
    def socket_dir(self) -> Path:
        return self.root / "socket"

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        """asyncpg's form for a unix socket: the folder as `host`, the port names the file."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    async def create_database(self, name: str, template: str = "template1") -> str:
        """A new, empty (or copied) database in the cluster; its URL."""
        conn = await asyncpg.connect(self.url())
        try:
            # FILE_COPY (PostgreSQL 15+) copies a small template's files at once, much faster
            # than 15's default of writing every page to the WAL.
            copy = " STRATEGY FILE_COPY" if conn.get_server_version().major >= 15 else ""
            await conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}{copy}")
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, name: str) -> None:
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"DROP DATABASE {name} (FORCE)")
        finally:
            await conn.close()

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr or done.stdout}{tail}")

    def start(self, options: str = FAST) -> None:
        self._run("initdb", "-D", str(self.data_dir), "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        server_options = (f"-k {self.socket_dir} -p {self.port} -c listen_addresses='' "
                          f"-c max_connections=200 {options}")
        self._run("pg_ctl", "-D", str(self.data_dir), "-l", str(self.root / "server.log"),
                  "-o", server_options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data_dir), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start_cluster(options: str = FAST) -> PostgresCluster:
    """A running throwaway cluster; raises PostgresMissing with one line saying what to do."""
    bindir = server_bindir()
    if bindir is None:
        raise PostgresMissing(
            "PostgreSQL's server binaries (initdb, pg_ctl) were not found: run `make test`, "
            "which installs Debian's postgresql package, or `apt-get install postgresql`"
        )
    user = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise PostgresMissing(
                "running as root, PostgreSQL needs the `postgres` account to run its server: "
                "install Debian's postgresql package (it creates it)"
            ) from None
        user = "postgres"
    # The server account must reach the folder: under /tmp, not a TMPDIR inside root's home.
    root = Path(tempfile.mkdtemp(prefix="lamabot-pg-", dir="/tmp" if user else None))
    cluster = PostgresCluster(bindir, root, random.randint(20000, 60000), user)
    for folder in (cluster.root, cluster.socket_dir):
        folder.mkdir(exist_ok=True)
        if user is not None:
            shutil.chown(folder, user, user)
    root.chmod(0o755)  # the server account must reach its data folder below ours
    try:
        cluster.start(options)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return cluster

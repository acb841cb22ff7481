"""A real, throwaway PostgreSQL server, started by the tests (their fixtures in tests/postgres.py)
and by the benchmarks themselves.

The Debian ``postgresql`` package's initdb and pg_ctl build a throwaway cluster in a temporary
folder, listening on a free loopback port, for as long as its caller holds it (the tests: their
whole session). They refuse to run as root, so as root they run as ``nobody``. Durability is
switched off (fsync, synchronous commit): a test cluster is thrown away, and it makes each
test's fresh database cheap. A server that cannot start fails the tests that need it; nothing
is skipped.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The unprivileged account the server runs as when the tests run as root.
SERVER_USER = "nobody"
SUPERUSER = "postgres"


@dataclass(frozen=True, slots=True)
class PostgresServer:
    host: str
    port: int

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/{database}"

    async def create(self, database: str) -> str:
        """A new, empty database on the server; its URL."""
        import asyncpg

        admin = await asyncpg.connect(self.url("postgres"))
        try:
            await admin.execute(f'CREATE DATABASE "{database}"')
        finally:
            await admin.close()
        return self.url(database)


def _bin_dir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent  # the newest installed major version
    on_path = shutil.which("pg_ctl")
    if on_path is None:
        raise RuntimeError(
            "PostgreSQL is not installed: apt-get install -y postgresql (.ci/run does it)"
        )
    return Path(on_path).parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", SERVER_USER, "--", *command]


def _run(command: list[str]) -> None:
    done = subprocess.run(
        _as_server_user(command), capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def _start(bin_dir: Path, root: Path, attempts: int = 3) -> int:
    """Start the cluster in ``root/data`` on a free loopback port; returns the port. Another
    program may take the port between the probe and the server's bind: then try another."""
    log = root / "server.log"
    for attempt in range(1, attempts + 1):
        port = _free_port()
        options = " ".join(
            (
                "-c listen_addresses=127.0.0.1",
                f"-c port={port}",
                f"-c unix_socket_directories={root}",
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c max_connections=200",
            )
        )
        pg_ctl = [str(bin_dir / "pg_ctl"), "-D", str(root / "data"), "-l", str(log)]
        try:
            _run([*pg_ctl, "-o", options, "-w", "start"])
        except RuntimeError as error:
            if attempt == attempts:
                server_log = log.read_text(errors="replace") if log.exists() else ""
                raise RuntimeError(f"{error}\nserver log:\n{server_log}") from error
            continue
        return port
    raise AssertionError("unreachable")


@contextlib.contextmanager
def running_server() -> Iterator[PostgresServer]:
    """initdb a cluster in a temporary folder, start it, yield where it listens, stop it."""
    bin_dir = _bin_dir()
    root = Path(tempfile.mkdtemp(prefix="nines-pg-"))
    try:
        if os.geteuid() == 0:
            user = pwd.getpwnam(SERVER_USER)
            os.chown(root, user.pw_uid, user.pw_gid)
        initdb = [str(bin_dir / "initdb"), "-D", str(root / "data"), "-U", SUPERUSER]
        _run([*initdb, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
        port = _start(bin_dir, root)
        try:
            yield PostgresServer("127.0.0.1", port)
        finally:
            _run([str(bin_dir / "pg_ctl"), "-D", str(root / "data"), "-m", "immediate", "stop"])
    finally:
        shutil.rmtree(root, ignore_errors=True)

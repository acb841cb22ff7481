"""Numbered schema migrations, one folder per database with the same numbers: version N is the
same schema on SQLite (``bot/migrations/``) and on PostgreSQL (``bot/migrations/postgresql/``).
Never edit one that has shipped; add the next number to both folders."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

#: Where each dialect's migrations live, under the ``bot`` package.
_FOLDERS = {"sqlite": ("migrations",), "postgresql": ("migrations", "postgresql")}


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(dialect: str = "sqlite") -> list[Migration]:
    """The packaged migrations of one dialect, in order; read through importlib.resources so an
    installed wheel works as well as a checkout."""
    folder = resources.files("bot").joinpath(*_FOLDERS[dialect])
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is not None and entry.is_file():
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    # Numbers are handed out to work in parallel, so one may land before the numbers below
    # it: each number once, in order. A database is at the highest number it applied.
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions) or any(v < 1 for v in versions):
        raise RuntimeError(f"migrations are not numbered once each: {[m.name for m in found]}")
    return found


def check_version(current: int, migrations: list[Migration]) -> None:
    """Refuse a database whose schema is newer than this code knows."""
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise RuntimeError(
            f"database schema v{current} is newer than this code (v{latest}); refusing to run"
        )

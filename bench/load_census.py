"""Where the games' memory at rest goes (``NINES_LOAD_CENSUS``; stalls the bot once, so not
for figures): the objects made since start-up by type, counting the untracked ones they hold
(strings, numbers, tuples of them), and the deep size of each part a live game is held by.

Start-up's objects are frozen (``bot/app.py``'s ``tune_gc``), so ``gc.get_objects`` lists only
what came after; an old object one of them holds (an interned string, a small number) is
counted once, which is noise against megabytes.
"""

from __future__ import annotations

import gc
import sys
import types
from collections.abc import Iterable
from typing import Any

#: Never walked into by a deep size: shared by every game, or the process's own.
SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def flat(lines: list[str]) -> None:
    """Every object made since start-up, and the untracked ones they hold, by type."""
    seen: set[int] = set()
    by_type: dict[str, list[int]] = {}

    def count(obj: object) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        entry = by_type.setdefault(type(obj).__qualname__, [0, 0])
        entry[0] += 1
        entry[1] += sys.getsizeof(obj)

    tracked = gc.get_objects()
    mine = {id(seen), id(tracked), id(by_type)}
    for obj in tracked:
        if id(obj) not in mine:
            count(obj)
    for obj in tracked:
        if id(obj) in mine:
            continue
        for ref in gc.get_referents(obj):
            if not gc.is_tracked(ref):
                count(ref)
    total = sum(size for _, size in by_type.values())
    lines.append(f"\nmade since start-up, untracked ones held included: {total / 2**20:.2f} MB")
    for name, (n, size) in sorted(by_type.items(), key=lambda kv: -kv[1][1])[:30]:
        lines.append(f"{n:10d} {size / 1024:9.1f} KB  {name}")


def deep(roots: Iterable[object], stop: set[int]) -> tuple[int, dict[str, int]]:
    """The bytes reachable from ``roots``, not through ``stop`` nor shared objects."""
    seen = set(stop)
    todo = list(roots)
    total = 0
    by_type: dict[str, int] = {}
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, SHARED):
            continue
        seen.add(id(obj))
        size = sys.getsizeof(obj)
        total += size
        name = type(obj).__qualname__
        by_type[name] = by_type.get(name, 0) + size
        todo.extend(gc.get_referents(obj))
    return total, by_type


def parts(bot: Any, lines: list[str]) -> None:
    """The deep size of each part that holds the live games, per game."""
    sessions = list(bot.sessions._by_id.values())
    n = max(1, len(sessions))
    presenter = bot.presenter
    from bot.table import MODELS

    # Shared: what a deep walk must not enter (the bot, its clients, the registry).
    stop = {id(x) for x in (bot, presenter, bot.sessions, bot.storage, bot.computers, bot.http)}
    stop |= {id(bot._connection)} | {id(s.deps) for s in sessions}
    stop |= {id(s) for s in sessions}  # each part on its own
    connection = bot._connection
    groups: dict[str, list[object]] = {
        "sessions (own fields)": [vars(s) for s in sessions],
        "  engine games": [s.game for s in sessions],
        "  seats": [s.seats for s in sessions],
        "  timers": [s.timer for s in sessions],
        "  lobbies": [s.lobby for s in sessions],
        "  locks": [s.lock for s in sessions] + [s.table_lock for s in sessions],
        "registry maps": [bot.sessions._by_id, bot.sessions._by_channel],
        "deliveries": [presenter.messages.deliveries],
        "follow-up budget": [presenter.messages.followups._posts],
        "table models": [MODELS._models],
        "discord.py ratelimits": [bot.http._buckets, bot.http._bucket_hashes],
        "discord.py messages": [connection._messages],
        "discord.py users": [connection._users],
        "discord.py guilds": [connection._guilds],
        "discord.py views": [connection._view_store],
        "loop": [bot.loop._scheduled, bot.loop._ready],
    }
    lines.append(
        f"\ntable models kept: {len(MODELS)}, built {MODELS.built}, reused {MODELS.reused}, "
        f"check for quiet pending: {MODELS._sweep is not None}"
    )
    lines.append(f"\ndeep sizes, per live game ({len(sessions)} live):")
    for name, roots in groups.items():
        size, by_type = deep(roots, stop)
        top = sorted(by_type.items(), key=lambda kv: -kv[1])[:6]
        lines.append(
            f"{name:28s} {size / n / 1024:7.2f} KB   "
            + ", ".join(f"{k} {v / n:.0f}" for k, v in top)
        )
    rest = list(vars(presenter).values())
    size, by_type = deep(rest, stop)
    top = sorted(by_type.items(), key=lambda kv: -kv[1])[:8]
    lines.append(
        f"{'presenter (all)':28s} {size / n / 1024:7.2f} KB   "
        + ", ".join(f"{k} {v / n:.0f}" for k, v in top)
    )


def census(bot: Any) -> str:
    lines: list[str] = []
    flat(lines)
    try:
        parts(bot, lines)
        owners(lines)
    except Exception as error:  # a diagnostic: say what broke, keep the run
        lines.append(f"parts: {error!r}")
    return "\n".join(lines) + "\n"


def owners(lines: list[str]) -> None:
    """Who holds the kinds that weigh most: by the chain of holders' types of a sample."""
    tracked = gc.get_objects()
    wanted: dict[str, list[object]] = {
        k: [] for k in ("bytes", "str", "deque", "tuple", "list", "dict", "float", "code")
    }
    seen: set[int] = set()
    mine = {id(seen), id(tracked)}
    for obj in tracked:
        if id(obj) in mine:
            continue
        for ref in [obj, *gc.get_referents(obj)]:
            name = type(ref).__qualname__
            if name in wanted and id(ref) not in seen:
                seen.add(id(ref))
                wanted[name].append(ref)
    del tracked
    mine |= {id(wanted), *(id(v) for v in wanted.values())}
    for name, objs in wanted.items():
        chains: dict[str, list[int]] = {}
        step = max(1, len(objs) // 60)  # each holder found is a scan of the heap
        sample = objs[::step]
        mine.add(id(sample))
        for obj in sample:
            chain = []
            holder: object = obj
            for _ in range(4):
                refs = [
                    r
                    for r in gc.get_referrers(holder)
                    if id(r) not in mine and not isinstance(r, types.FrameType)
                ]
                if not refs:
                    break
                # A named holder over a list (the census's own lists hold everything).
                holder = next((r for r in refs if not isinstance(r, list)), refs[0])
                chain.append(type(holder).__qualname__)
            key = " < ".join(chain)
            entry = chains.setdefault(key, [0, 0])
            entry[0] += step
            entry[1] += sys.getsizeof(obj) * step
        lines.append(f"\n{name} ({len(objs)}), held by:")
        for key, (n, size) in sorted(chains.items(), key=lambda kv: -kv[1][1])[:8]:
            lines.append(f"   {n:7d} {size / 1024:8.1f} KB  {key}")

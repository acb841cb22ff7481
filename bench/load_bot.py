"""The load run's bot side (bench/load.py): the real bot in a child process, its metrics heard
as raw samples, and its memory by part, idle and under load."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import signal
import sys
import tempfile
import threading
import time
import traceback
from array import array
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.load_report import STALL_S

ROOT = Path(__file__).resolve().parents[1]

if TYPE_CHECKING:
    pass


def samples() -> array[float]:
    return array("d")


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def rss_parts() -> dict[str, int]:
    """Resident memory by kind: anonymous (the heap), file-backed (code and libraries paged
    in), shared memory (SQLite's WAL index), in bytes."""
    parts = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("RssAnon", "RssFile", "RssShmem")):
                name, value, _ = line.split()
                parts[name.rstrip(":")] = int(value) * 1024
    with contextlib.suppress(OSError, AttributeError):  # what SQLite's own allocator holds
        import ctypes

        used = ctypes.CDLL("libsqlite3.so.0").sqlite3_memory_used
        used.restype = ctypes.c_int64
        parts["SQLite"] = int(used())
    # Python's own allocator: its arenas, and the blocks in them in use (it prints to fd 2).
    with tempfile.TemporaryFile() as f:
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        for line in f.read().decode().splitlines():
            if "# arenas allocated current" in line:
                parts["arenas"] = int(line.split("=")[1].replace(",", "")) * 2**20
            elif "# bytes in allocated blocks" in line:
                parts["blocks"] = int(line.split("=")[1].replace(",", ""))
    return parts


async def child(out: Path) -> None:
    import gc

    from bot.base import Settings, metrics
    from bot.process.run import build_bot

    settings = Settings.from_mapping(os.environ)
    if settings.metrics_port is None:
        raise SystemExit("the load run's bot needs METRICS_PORT: its timings are the metrics'")
    bot = await build_bot(settings)
    measured = metrics.active
    assert measured is not None  # METRICS_PORT set: build_bot enabled them
    # Samples go into arrays of doubles, not lists of floats: a float object per sample (a few
    # hundred thousand in a run) counted against the games' memory and pinned the allocator's
    # arenas.
    lags = samples()
    hops = samples()
    queued = samples()
    memory: dict[str, Any] = {}

    # The bot's own timings (bot/base/metrics.py), every one as it is measured: a click's answer
    # (from its handler starting to Discord accepting the answer) by interaction, so that the
    # people's side can say what kind of click it was; computer decisions; database writes.
    # Nothing of the bot is patched: where else its time goes, --profile says.
    answers: dict[int, float] = {}
    spent: defaultdict[str, array[float]] = defaultdict(samples)

    def heard(name: str, seconds: float, interaction_id: int | None) -> None:
        if name == metrics.ANSWER and interaction_id is not None:
            answers[interaction_id] = seconds
        else:
            spent[name].append(seconds)

    measured.listen(heard)

    # A watchdog thread: when the loop has not ticked for STALL_S, note where the loop's
    # thread is (its innermost frames): what stalls every game at once.
    beat = [time.perf_counter()]
    stalls: dict[str, int] = {}
    loop_thread = threading.get_ident()

    def watchdog() -> None:
        seen = 0.0
        while True:
            time.sleep(0.02)
            if time.perf_counter() - beat[0] > STALL_S and beat[0] != seen:
                seen = beat[0]
                frame = sys._current_frames().get(loop_thread)
                # Without source lines: reading them filled linecache with whole files,
                # megabytes the memory figure counted against the games.
                stack = traceback.StackSummary.extract(
                    traceback.walk_stack(frame), limit=4, lookup_lines=False
                )
                where = list(stack) if frame else []
                key = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in where)
                stalls[key] = stalls.get(key, 0) + 1

    threading.Thread(target=watchdog, daemon=True).start()

    loop = asyncio.get_running_loop()

    async def lag_probe() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            beat[0] = time.perf_counter()
            lags.append(beat[0] - start - 0.01)
            # One hop through the loop's queue (what every await on I/O costs a click), and
            # how many callbacks were queued when it was asked.
            queued.append(len(loop._ready))  # type: ignore[attr-defined]
            start = time.perf_counter()
            await asyncio.sleep(0)
            hops.append(time.perf_counter() - start)

    # Garbage-collector pauses stop the loop too: time each collection, per generation.
    pauses = {"0": samples(), "1": samples(), "2": samples()}
    collected = {"0": samples(), "1": samples(), "2": samples()}
    gc_started = [0.0]

    def gc_timer(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            pauses[str(info["generation"])].append(time.perf_counter() - gc_started[0])
            collected[str(info["generation"])].append(info["collected"])

    gc.callbacks.append(gc_timer)

    def snapshot(name: str) -> None:
        """Memory at three points: idle before any game ("baseline"), under load ("loaded":
        requests in flight included) and with every game still live but no click in flight
        ("rest": what holding the games costs)."""
        if name in ("baseline", "rest"):  # under load a full collection would stall every game
            gc.collect()
        tracing = os.environ.get("NINES_LOAD_TRACEMALLOC")
        if name == "baseline" and tracing:
            import tracemalloc

            tracemalloc.start(6)
        sessions = getattr(bot, "sessions", None)
        memory[name] = {
            "rss": rss_bytes(),
            "live": len(sessions) if sessions else 0,
            **rss_parts(),
        }
        if name == "rest":
            # Diagnosis: how much of it the C allocator held free (returned by malloc_trim).
            with contextlib.suppress(OSError, AttributeError):
                import ctypes

                ctypes.CDLL("libc.so.6").malloc_trim(0)
                memory["trimmed"] = {"rss": rss_bytes(), "live": memory[name]["live"]}
        if name == "rest" and tracing:
            # What the games added since idle, by where it was allocated (slows the bot:
            # not for figures).
            import tracemalloc

            stats = tracemalloc.take_snapshot().statistics("traceback")
            with Path(tracing).open("w") as f:
                f.write(f"traced: {sum(s.size for s in stats) / 2**20:.1f} MB\n")
                for stat in stats[:60]:
                    f.write(f"\n{stat.size / 1024:9.1f} KB in {stat.count} blocks\n")
                    f.write("\n".join("    " + line for line in stat.traceback.format()[-8:]))
            tracemalloc.stop()
            sys._debugmallocstats()  # Python's own allocator: arenas, pools, free blocks
        if name == "rest" and os.environ.get("NINES_LOAD_CENSUS"):
            # What the heap holds (stalls the bot once, so not for figures): objects the
            # collector tracks, by type, and where the last-allocated ones were made.
            by_type: dict[str, list[int]] = {}
            for obj in gc.get_objects():
                entry = by_type.setdefault(type(obj).__qualname__, [0, 0])
                entry[0] += 1
                entry[1] += sys.getsizeof(obj)
            top = sorted(by_type.items(), key=lambda kv: -kv[1][1])[:40]
            tracked = [len(gc.get_objects(g)) for g in range(3)]
            start = time.perf_counter()
            gc.collect()
            full_ms = (time.perf_counter() - start) * 1000
            Path(os.environ["NINES_LOAD_CENSUS"]).write_text(
                f"tracked by generation: {tracked}, frozen: {gc.get_freeze_count()}, "
                f"a full collection now: {full_ms:.1f} ms, live games: {memory[name]['live']}\n"
                + "\n".join(f"{n:10d} {size / 2**20:8.2f} MB  {name}" for name, (n, size) in top)
            )
            from bench.load_census import census

            # Who holds a few objects of the kinds that should not outlive a click.
            with Path(os.environ["NINES_LOAD_CENSUS"]).open("a") as f:
                f.write(census(bot))
                for kind in ("View", "Task", "deque", "coroutine"):
                    found = [o for o in gc.get_objects() if type(o).__qualname__ == kind][-3:]
                    for obj in found:
                        f.write(f"\n{kind} {str(obj)[:150]!r} held by:")
                        for ref in gc.get_referrers(obj)[:4]:
                            if ref is not found and not isinstance(ref, type(sys._getframe())):
                                f.write(f"\n    {type(ref).__qualname__} {str(ref)[:150]!r}")
            # From now on keep what the collector would free, to see what makes cycles.
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)

    def garbage_census() -> None:
        gc.collect()
        kinds: dict[str, int] = {}
        for obj in gc.garbage:
            kinds[type(obj).__qualname__] = kinds.get(type(obj).__qualname__, 0) + 1
        top = sorted(kinds.items(), key=lambda kv: -kv[1])[:40]
        with Path(os.environ["NINES_LOAD_CENSUS"]).open("a") as f:
            f.write("\n\ncyclic garbage since then, by type:\n")
            f.write("\n".join(f"{n:10d}  {name}" for name, n in top))

    def dump() -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        out.write_text(
            json.dumps(
                {
                    "answers": answers,
                    "lags": lags.tolist(),
                    "hops": hops.tolist(),
                    "queued": queued.tolist(),
                    "memory": memory,
                    "spent": {name: values.tolist() for name, values in spent.items()},
                    "cpu": usage.ru_utime + usage.ru_stime,
                    "gc": {g: values.tolist() for g, values in pauses.items()},
                    "gc_collected": {g: values.tolist() for g, values in collected.items()},
                    "stalls": stalls,
                }
            )
        )

    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGUSR1, lambda: snapshot("baseline"))
    loop.add_signal_handler(signal.SIGUSR2, lambda: snapshot("loaded"))
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    probe = asyncio.create_task(lag_probe())
    profile_to = os.environ.get("NINES_LOAD_PROFILE")
    if profile_to:  # where the bot's CPU goes (it slows the bot down: not for figures)
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()

    def at_rest() -> None:
        nonlocal profiler
        snapshot("rest")
        if profile_to:  # the steady play follows: what a card costs, not the openings
            profiler.disable()
            profiler = cProfile.Profile()
            profiler.enable()

    loop.add_signal_handler(signal.SIGHUP, at_rest)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token))
        await stop.wait()
        probe.cancel()
        if profile_to:
            profiler.disable()
            profiler.dump_stats(profile_to)
        dump()
        if os.environ.get("NINES_LOAD_CENSUS"):
            garbage_census()
        runner.cancel()

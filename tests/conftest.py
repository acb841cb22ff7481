import gc
import itertools
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

# discord.py imports the stdlib `audioop` for voice, which warns on 3.11+; the project runs
# with filterwarnings=error, so import it once here with just that warning silenced.
with warnings.catch_warnings():
    warnings.filterwarnings(
        "ignore", message="'audioop' is deprecated", category=DeprecationWarning
    )
    import discord  # noqa: F401

# The suite keeps Python's bytecode caches even where the environment says not to write them
# (PYTHONDONTWRITEBYTECODE=1, as on this project's machines): without them each test worker
# rewrote and compiled every test module again (about 4 s of CPU a worker) and each bot
# process a test starts compiled the project anew.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

pytest_plugins = [
    "fakecord.fixtures",
    "tests.postgres",
    "tests.storage_backends",
    "tests.lease_clock",
]


# CI runs `CI=true bash .ci/run` on a machine set up by .ci/system-deps: there every test can
# run, so a skip there is a part of the suite silently gone (a tool missing, a reason that no
# longer holds). It fails instead, with its reason; on a contributor's machine a skip stays one.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    report: pytest.TestReport = yield
    _no_skip_in_ci(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport:
    report: pytest.CollectReport = yield  # a module skipped whole (allow_module_level)
    _no_skip_in_ci(report)
    return report


def _no_skip_in_ci(report: pytest.TestReport | pytest.CollectReport) -> None:
    if not os.environ.get("CI") or not report.skipped or hasattr(report, "wasxfail"):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped, and CI runs every test: {reason}"


def pytest_configure(config: pytest.Config) -> None:
    """On a fresh checkout, the bytecode caches written once before the workers start.

    Each xdist worker collects the whole suite: with no caches yet, every one rewrote every
    test module's asserts and compiled the project at once, about 5 s of CPU each (8 s against
    3 s for a collection). One collection first writes them for all: the start of a run on a
    fresh clone took 34 s of CPU instead of 50 s (eight workers).
    """
    workers = config.getoption("numprocesses", None)
    if not workers or hasattr(config, "workerinput") or not _without_caches():
        return
    subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0",
         "-p", "no:cacheprovider", *config.args],
        cwd=config.rootpath, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )  # fmt: skip


def _without_caches() -> bool:
    """True when some test module has no assert-rewritten cache yet (pytest writes one,
    ``<name>.<impl>-pytest-<version>.pyc``, beside each module it rewrites)."""
    here = Path(__file__).parent
    for module in here.rglob("test_*.py"):
        if not any((module.parent / "__pycache__").glob(f"{module.stem}.*-pytest-*.pyc")):
            return True
    return False


def _seconds(item: pytest.Item) -> float:
    mark = item.get_closest_marker("slow")
    return float(mark.args[0]) if mark is not None else 0.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long tests first, spread over the workers. xdist's worksteal hands each of the n
    workers one of n consecutive blocks of the collection and lets an idle worker steal from
    the end of another's: a long test at the start of a block runs at once, on its own worker,
    instead of being found last and making the whole run wait on it. Each long test goes to
    the block with the fewest seconds so far; the others fill the blocks in their order."""
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers < 2:
        return
    sizes, left = [], len(items)
    for k in range(workers):  # as worksteal splits the collection
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    blocks: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for item in sorted((i for i in items if _seconds(i)), key=_seconds, reverse=True):
        k = min(range(workers), key=lambda j: load[j])
        blocks[k].append(item)
        load[k] += _seconds(item)
    # The others: each block takes its share of the tests that play through the double (most
    # of their time waits on Discord's rate limits, ten to thirty seconds each) before its
    # share of the quick ones, so no bot test is left to run alone at the end while the other
    # workers, done, steal what little is left.
    rest = [i for i in items if not _seconds(i)]
    waits = iter([i for i in rest if _plays_through_the_double(i)])
    quick = iter([i for i in rest if not _plays_through_the_double(i)])
    need = [max(0, size - len(block)) for block, size in zip(blocks, sizes, strict=True)]
    count, total = sum(map(_plays_through_the_double, rest)), max(1, sum(need))
    for block, room in zip(blocks, need, strict=True):
        first = len(block)
        block.extend(itertools.islice(waits, round(count * room / total)))
        block.extend(itertools.islice(quick, room - (len(block) - first)))
    blocks[-1].extend(itertools.chain(waits, quick))
    items[:] = [item for block in blocks for item in block]


def _plays_through_the_double(item: pytest.Item) -> bool:
    return item.nodeid.startswith(("tests/bot/", "tests/activity/"))


@pytest.fixture(scope="session")
def mock_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The web table built with Discord's SDK mock, for the browser tests (the production
    build in bot/activity/static/ has none): built once per test process."""
    from testbed.web_build import NoNode, build_with_mock

    try:
        return build_with_mock(tmp_path_factory.mktemp("mock-static"))
    except NoNode as error:
        pytest.skip(str(error))


@pytest.fixture(scope="module", autouse=True)
def _garbage_of_a_module_with_servers(request: pytest.FixtureRequest) -> Iterator[None]:
    """A socket a test module's servers left open warns (ResourceWarning, an error here) when
    it is collected: collected at the module's end, the warning fails that module's last test,
    not whichever later test happened to run the collector (a game engine test once took ten
    sockets of an earlier module's Activity server). After the module's other fixtures, as
    set up before them; the modules that start servers only (a collection is ~30 ms)."""
    yield
    if request.module.__name__.startswith(("tests.bot.", "tests.activity.")):
        gc.collect()

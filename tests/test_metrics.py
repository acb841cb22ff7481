"""The bot's timings heard as they are measured (``Metrics.listen``): what bench/load.py reads
instead of patching the bot's classes. Each timing reaches its Prometheus histogram and every
listener, with the interaction it timed."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.base import ANSWER, DECISION, WRITE, Metrics, metrics
from bot.storage import Storage

Heard = list[tuple[str, float, int | None]]


def counted(measured: Metrics, name: str) -> float:
    """The histogram's count as Prometheus scrapes it."""
    for family in text_string_to_metric_families(measured.exposition().decode()):
        for sample in family.samples:
            if sample.name == f"{name}_count":
                return sample.value
    raise AssertionError(f"no {name} in the exposition")


async def test_a_listener_hears_each_click_answer_with_its_interaction() -> None:
    async def callback(_request: web.Request) -> web.Response:
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    measured, heard = Metrics(), Heard()
    measured.listen(lambda name, seconds, interaction: heard.append((name, seconds, interaction)))
    try:
        measured.click(42)
        async with aiohttp.ClientSession(response_class=measured.response_class()) as http:
            token = "t" * 70  # an interaction token's length
            url = f"http://127.0.0.1:{port}/api/v10/interactions/42/{token}/callback"
            async with http.post(url, json={"type": 6}) as answer:
                assert answer.status == 204
            # A second answer to the same click is not timed again.
            async with http.post(url, json={"type": 6}) as answer:
                assert answer.status == 204
    finally:
        await runner.cleanup()
    assert [(name, interaction) for name, _, interaction in heard] == [(ANSWER, 42)]
    assert 0 < heard[0][1] < 5
    assert counted(measured, ANSWER) == 1


async def test_a_listener_hears_database_writes_and_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured, heard = Metrics(), Heard()
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    try:
        measured.time_writes(storage)
        measured.listen(
            lambda name, seconds, interaction: heard.append((name, seconds, interaction))
        )
        await storage.set_meta("probe", "1")
        assert await storage.get_meta("probe") == "1"  # a read is not a write
    finally:
        await storage.close()
    # The hook bot/game/computer.py calls after each decision, with metrics on in this process.
    monkeypatch.setattr(metrics, "active", measured)
    metrics.decision_time(0.25)
    assert [(name, interaction) for name, _, interaction in heard] == [
        (WRITE, None),
        (DECISION, None),
    ]
    assert heard[-1][1] == 0.25
    assert counted(measured, WRITE) == 1 and counted(measured, DECISION) == 1

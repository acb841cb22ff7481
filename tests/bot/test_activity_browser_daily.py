"""Issue 47 in a real browser: today's daily deal played at the web table, served by the bot's
own Activity server (the tests' build, with Discord's SDK mocked in the page: testbed/web_build.py)
against the Discord double. The page, where no game runs, offers the daily; the person plays it
through to their result, privately, then goes back to the channel's table; opened again (in
French), the page shows the result, and nothing else of the deal.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from fakecord.models import User
from testbed.games import text_of, wait_for

from .test_activity import Activity
from .test_activity_browser import SEEN_WITHIN, SHOTS, STEP, chrome, in_browser
from .test_activity_daily import activity  # noqa: F401
from .test_daily import public_messages

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:selenium")

BAR = "return document.querySelector('[data-region=bar]')?.innerText ?? ''"
CENTER = "return document.querySelector('[data-region=center]')?.innerText ?? ''"
RESULT = "return document.querySelector('.dailyresult')?.innerText ?? ''"
NOTICE = "return document.querySelector('[data-region=notice]')?.innerText ?? ''"


def page(served: Activity, user: User, locale: str) -> str:
    fake = served.fake
    instance = fake.activity_instance(fake.channel, [user.id])
    return (
        f"{served.base}/?mock={user.id}&channel={fake.channel.id}&guild={fake.guild.id}"
        f"&instance={instance}&code={fake.authorize(user)}&locale={locale}"
    )


async def until(driver: Any, script: str, check: Any) -> str:
    """``script``'s text once ``check`` holds of it (a hang guard, not a timing)."""
    end = time.monotonic() + SEEN_WITHIN
    while not check(text := await in_browser(driver, script)):
        assert time.monotonic() < end, (text, await in_browser(driver, NOTICE))
        await asyncio.sleep(0.05)
    return str(text)


@pytest.mark.slow(60)
async def test_the_daily_played_in_a_browser_to_its_result_and_back(
    activity: Activity,  # noqa: F811
    mock_static: Path,
) -> None:
    assert activity.bot is not None and activity.bot.activity_server is not None
    activity.bot.activity_server.static = mock_static
    fake, bot = activity.fake, activity.bot
    alice = fake.add_user("alice")
    driver = await asyncio.to_thread(chrome)
    try:
        await asyncio.to_thread(driver.get, page(activity, alice, "en"))
        # No game here: the page offers today's daily, one button a game.
        await until(driver, CENTER, lambda t: "Today's daily deal" in t)
        await in_browser(driver, "document.querySelector('[data-ui=\"daily-nein-nine\"]').click()")
        bar = await until(driver, BAR, lambda t: "Daily Nein Nine" in t)
        assert "Only you see this table" in bar
        SHOTS.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(driver.save_screenshot, str(SHOTS / "daily-table.png"))
        # Played through from the page, whatever it may do, to the result.
        end = time.monotonic() + 10 * SEEN_WITHIN
        while not await in_browser(driver, RESULT):
            assert time.monotonic() < end, await in_browser(driver, NOTICE)
            await in_browser(driver, STEP)
            await asyncio.sleep(0.05)
        day = bot.daily.today()
        result = await in_browser(driver, RESULT)
        assert f"Daily Nein Nine of {day.replace('-', chr(0x2011))}" in result  # kept whole
        assert "You are the first to finish this deal" in result
        assert "Round 1: " in result or "Hand 1: " in result
        assert "Only you see this result" in result
        await asyncio.to_thread(driver.save_screenshot, str(SHOTS / "daily-result.png"))
        found = await bot.storage.daily_try(day, "nein-nine", alice.id)
        assert found is not None and found.finished
        # The channel got its one line; the page goes back to the channel's table.
        await wait_for(fake, lambda: public_messages(fake, alice, fake.channel))
        assert "played today's daily Nein Nine" in text_of(
            public_messages(fake, alice, fake.channel)[-1]
        )
        await in_browser(driver, "document.querySelector('[data-ui=\"daily-leave\"]').click()")
        await until(driver, CENTER, lambda t: "No game in this channel yet" in t)
        assert await in_browser(driver, RESULT) == ""
        # Opened again, in French: the daily's result at once (one try a day), in French.
        await asyncio.to_thread(driver.get, page(activity, alice, "fr"))
        await until(driver, CENTER, lambda t: "Partie du jour" in t)
        await in_browser(driver, "document.querySelector('[data-ui=\"daily-nein-nine\"]').click()")
        again = await until(driver, RESULT, lambda t: "Partie du jour" in t)
        assert "Personne d'autre n'a encore terminé cette partie" in again
        assert "Retour à la table du salon" in again
        await asyncio.to_thread(driver.save_screenshot, str(SHOTS / "daily-result-fr.png"))
        assert await in_browser(driver, BAR) == ""  # at no table: nothing of the deal but this
    finally:
        await asyncio.to_thread(driver.quit)

"""/nines start options: every rule setting reaches the started game's engine rules (in memory
and in the stored game row); a bad value is answered privately and opens nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import NinesBot
from engine import TRUMP_PRESETS, Rules, Suit
from fakecord import FakeDiscord
from fakecord.errors import UsageRefused

from .conftest import StartBot
from .test_lobby import all_acknowledged, full_lobby, ok, refused

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES


async def started_rules(fake: FakeDiscord, bot: NinesBot, **options: Any) -> Rules:
    """Open a lobby with `options`, fill it with computers, start it; the rules it runs by."""
    host = fake.add_user("host")
    players = Rules.from_settings(str(options.get("ruleset", "classic"))).players
    lobby = await full_lobby(fake, host, computers=players - 1, **options)
    ok(await fake.click(host, lobby, "Start"))
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.game is not None
    row = await bot.storage.game(session.id)
    assert row is not None and row.status == "live"
    stored = Rules.from_dict(row.rules)
    assert stored == session.game.rules == session.rules
    assert stored.settings() == session.game.rules.settings()
    all_acknowledged(fake)
    return session.game.rules


CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, {"name": "classic", "players": 3, "trumps": TRUMP_PRESETS["classic"], "start": 9}),
    ({"ruleset": "classic"}, {"name": "classic", "players": 3}),
    ({"ruleset": "partnership"}, {"name": "partnership", "players": 4, "units": 2}),
    ({"ruleset": "four-player"}, {"name": "four-player", "players": 4, "units": 4}),
    ({"ruleset": "nein-nine"}, {"name": "nein-nine", "game": "nein-nine", "players": 3}),
    ({"trumps": "quebec"}, {"trumps": (H, S, D, C, None), "trumps_setting": "quebec"}),
    ({"trumps": "spades-first"}, {"trumps": TRUMP_PRESETS["spades-first"]}),
    ({"trumps": "h, s,nt"}, {"trumps": (H, S, None), "trumps_setting": "H,S,NT"}),
    ({"exchange": "dealer"}, {"exchange": "dealer"}),
    ({"exchange": "left"}, {"exchange": "left"}),
    ({"ties": "joint"}, {"ties": "joint"}),
    ({"ties": "play-on"}, {"ties": "play-on"}),
    ({"instant_win": "on"}, {"instant_win": True}),
    ({"instant_win": "off"}, {"instant_win": False}),
    ({"start": 3}, {"start": 3}),
    ({"start": 21}, {"start": 21}),
    ({"ruleset": "nein-nine", "rounds": 4}, {"rounds": 4, "game": "nein-nine"}),
    ({"ruleset": "nein-nine", "limit": 6}, {"limit": 6}),
    (
        {"ruleset": "partnership", "trumps": "hcds", "ties": "joint", "start": 5},
        {"trumps_setting": "hcds", "ties": "joint", "start": 5, "players": 4},
    ),
]


@pytest.mark.parametrize(("options", "expected"), CASES, ids=[str(o) for o, _ in CASES])
async def test_each_setting_reaches_the_game(
    fake_discord: FakeDiscord,
    start_bot: StartBot,
    options: dict[str, Any],
    expected: dict[str, Any],
):
    bot = await start_bot()
    rules = await started_rules(fake_discord, bot, **options)
    for attr, value in expected.items():
        assert getattr(rules, attr) == value, (attr, getattr(rules, attr), value)


async def test_the_lobby_shows_the_chosen_rules(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    res = await fake.slash(
        alice, fake.channel, "nines start", trumps="quebec", start=5, instant_win="on"
    )
    assert res.message is not None
    line = res.message.embeds[0]["description"]
    assert "trumps: quebec" in line and "start at 5" in line and "instant win: on" in line


# ("hearts" alone is a trump order now: suits may be typed as words, in English or French.)
@pytest.mark.parametrize("trumps", ["X,Y", "H,S,D,C,NT,H,S,D,C,NT,H", "hearts,moons", ","])
async def test_bad_values_are_refused_privately(
    fake_discord: FakeDiscord, start_bot: StartBot, trumps: str
):
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    public_before = [m.id for m in fake.visible(fake.add_user("bob"), fake.channel)]
    res = await fake.slash(alice, fake.channel, "nines start", trumps=trumps)
    # What was wrong and what to write instead: the presets and the letters.
    text = refused(res, alice, "quebec", "H, D, C, S, NT")
    assert "trump" in text.lower()
    assert len(bot.sessions) == 0
    assert await bot.storage.game_in_channel(fake.channel.id) is None
    assert [m.id for m in fake.visible(fake.add_user("carol"), fake.channel)] == public_before


@pytest.mark.parametrize(
    "options", [{"start": 2}, {"start": 22}, {"rounds": 0}, {"limit": 31}, {"ties": "sudden-death"}]
)
async def test_out_of_range_values_are_not_even_offered(
    fake_discord: FakeDiscord, start_bot: StartBot, options: dict[str, Any]
):
    """Ranges and choices are part of the synced command: Discord's client refuses them."""
    fake = fake_discord
    await start_bot()
    with pytest.raises(UsageRefused):
        await fake.slash(fake.add_user("alice"), fake.channel, "nines start", **options)


async def test_server_defaults_apply_and_options_override_them(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    bot = await start_bot()
    await bot.storage.set_guild_settings(fake.guild.id, {"trumps": "quebec", "start": 7})
    rules = await started_rules(fake, bot, start=4)
    assert rules.trumps_setting == "quebec" and rules.start == 4

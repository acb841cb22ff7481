"""``/nines settings``: who may use it, what it stores, every refusal, and what it changes.

Also the thread-per-game setting, on a server that lets the bot create threads and on one that
does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.words import tr
from cogs.nines.setting_values import DEFAULTS, KEYS, SettingsInvalid, validate
from fakecord import FakeDiscord
from fakecord.errors import UsageRefused
from fakecord.interactions import Interaction
from fakecord.models import Channel, Message, User
from fakecord.permissions import Perm
from testbed.games import wait_for
from testbed.people import enabled_moves, open_hand, table_message, whose_turn

from .conftest import StartBot


def admin(fake: FakeDiscord, name: str = "admin", locale: str = "en-US") -> User:
    role = fake.add_role(fake.guild, f"managers-{name}", Perm.MANAGE_GUILD)
    return fake.add_user(name, locale=locale, roles=[role])


def text_of(res: Interaction) -> str:
    message = res.message
    assert message is not None, "no answer"
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts.append(str(embed.get("footer", {}).get("text", "")))
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def private(res: Interaction) -> str:
    assert not res.errors, res.errors
    assert res.ephemeral, "settings answers are private"
    return text_of(res)


def lobby_text(message: Message) -> str:
    embed = message.embeds[0]
    fields = " ".join(f"{f['name']} {f['value']}" for f in embed.get("fields", []))
    return f"{embed.get('title')} {embed.get('description')} {fields}"


# -- validation, unit by unit -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("ruleset", "poker"),
        ("trumps", "H,X"),
        ("trumps", "H,S,D,C,NT,H,S,D,C,NT,H"),
        ("exchange", "right"),
        ("ties", "coin-flip"),
        ("instant_win", "maybe"),
        ("start", 2),
        ("start", "nine"),
        ("rounds", 0),
        ("limit", 31),
        ("turn_timer", 5),
        ("turn_timer", 3600),
        ("turn_timer", "soon"),
        ("difficulty", "godlike"),
        ("language", "de"),
        ("threads", "sometimes"),
        ("colour", "green"),
    ],
)
def test_every_bad_value_has_its_own_message_in_both_languages(key: str, value: object) -> None:
    with pytest.raises(SettingsInvalid) as caught:
        validate({key: value})
    error = caught.value
    expected = "settings.error.unknown" if key == "colour" else f"settings.error.{key}"
    assert error.key == expected
    english, french = tr("en", error.key, **error.params), tr("fr", error.key, **error.params)
    shown = "colour" if key == "colour" else str(value)
    assert shown in english and shown in french
    assert english != french


def test_good_values_are_made_canonical() -> None:
    assert validate(
        {
            "ruleset": "Nein-Nine",
            "trumps": "h, s, nt",
            "exchange": "dealer",
            "instant_win": "on",
            "start": "7",
            "turn_timer": 45,
            "language": "auto",
            "threads": "on",
            "difficulty": "hard",
        }
    ) == {
        "ruleset": "nein-nine",
        "trumps": "H,S,NT",
        "exchange": "dealer",
        "instant_win": "on",
        "start": 7,
        "turn_timer": 45,
        "language": "",
        "threads": "on",
        "difficulty": "hard",
    }
    assert set(DEFAULTS) == set(KEYS)


# -- the command ------------------------------------------------------------------------------


async def test_only_server_managers_may_see_or_change_settings(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    bob = fake.add_user("bob")
    marie = fake.add_user("marie", locale="fr")
    for command, options in (
        ("nines settings show", {}),
        ("nines settings set", {"turn_timer": 60}),
        ("nines settings reset", {}),
    ):
        refused = private(await fake.slash(bob, fake.channel, command, **options))
        assert "Only members who can manage this server" in refused
    french = private(await fake.slash(marie, fake.channel, "nines settings show"))
    assert "Seuls les membres qui peuvent gérer ce serveur" in french
    assert await bot.storage.get_guild_settings(fake.guild.id) == {}
    # The owner (every permission) may.
    shown = private(await fake.slash(fake.owner, fake.channel, "nines settings show"))
    assert "This server's settings" in shown


async def test_who_may_not_manage_settings_is_told_so_before_any_value_is_read(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """The rule options are read (and refused) before the command runs (``RuleOption``); the
    Manage Server check comes before them, so a member who may not change settings is told
    that, not what is wrong with a value. Either refusal is one private answer."""
    fake = fake_discord
    bot = await start_bot()
    bob = fake.add_user("bob")
    refused = await fake.slash(bob, fake.channel, "nines settings set", trumps="H,Z")
    assert "Only members who can manage this server" in private(refused)
    assert "trump order" not in text_of(refused) and not refused.followups
    bad = await fake.slash(admin(fake), fake.channel, "nines settings set", trumps="H,Z")
    assert "“H,Z” is not a trump order" in private(bad) and not bad.followups
    start = await fake.slash(bob, fake.channel, "nines start", trumps="H,Z")
    assert "“H,Z” is not a trump order" in text_of(start) and not start.followups
    assert await bot.storage.get_guild_settings(fake.guild.id) == {} and len(bot.sessions) == 0


async def test_show_set_and_reset(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    fake = fake_discord
    bot = await start_bot()
    boss = admin(fake)
    shown = private(await fake.slash(boss, fake.channel, "nines settings show"))
    assert "Game: **Classic (3 players)** (default)" in shown
    assert "Turn timer: **120 s** (default)" in shown
    assert "Language of public messages: **the server's language** (default)" in shown
    assert "A thread for each game: **off** (default)" in shown

    saved = private(
        await fake.slash(
            boss,
            fake.channel,
            "nines settings set",
            ruleset="nein-nine",
            rounds=5,
            trumps="quebec",
            turn_timer=60,
            difficulty="hard",
            language="fr",
            threads="on",
        )
    )
    assert "Saved:" in saved and "Game: **Nein Nine**" in saved
    assert "Turn timer: **60 s**" in saved and "(default)" in saved  # the untouched ones
    assert await bot.storage.get_guild_settings(fake.guild.id) == {
        "ruleset": "nein-nine",
        "rounds": 5,
        "trumps": "quebec",
        "turn_timer": 60,
        "difficulty": "hard",
        "language": "fr",
        "threads": "on",
    }
    private(await fake.slash(boss, fake.channel, "nines settings reset", setting="threads"))
    stored = await bot.storage.get_guild_settings(fake.guild.id)
    assert "threads" not in stored and stored["turn_timer"] == 60
    back = private(await fake.slash(boss, fake.channel, "nines settings reset"))
    assert "Back to the defaults" in back
    assert await bot.storage.get_guild_settings(fake.guild.id) == {}


async def test_every_settings_error_is_refused_clearly(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    boss = admin(fake)
    chef = admin(fake, "chef", locale="fr")
    bad_trumps = private(await fake.slash(boss, fake.channel, "nines settings set", trumps="H,Z"))
    assert "“H,Z” is not a trump order" in bad_trumps and "H,S,D,C,NT" in bad_trumps
    nothing = private(await fake.slash(boss, fake.channel, "nines settings set"))
    assert "Choose at least one setting" in nothing
    french = private(await fake.slash(chef, fake.channel, "nines settings set", trumps="rouge"))
    assert "«\xa0rouge\xa0» n'est pas un ordre d'atouts" in french
    # A refused change stores nothing, not even the good values given with it.
    private(await fake.slash(boss, fake.channel, "nines settings set", turn_timer=60, trumps="no"))
    assert await bot.storage.get_guild_settings(fake.guild.id) == {}
    # Discord's own client refuses what the command's types rule out (ranges, choices).
    with pytest.raises(UsageRefused):
        await fake.slash(boss, fake.channel, "nines settings set", turn_timer=5)
    with pytest.raises(UsageRefused):
        await fake.slash(boss, fake.channel, "nines settings set", start=40)
    with pytest.raises(UsageRefused):
        await fake.slash(boss, fake.channel, "nines settings set", language="de")
    with pytest.raises(UsageRefused):
        await fake.slash(boss, fake.channel, "nines settings set", ruleset="poker")
    # /nines start validates its own options the same way.
    start = await fake.slash(boss, fake.channel, "nines start", trumps="H,Z")
    assert start.ephemeral and "“H,Z” is not a trump order" in text_of(start)
    start = await fake.slash(chef, fake.channel, "nines start", trumps="H,Z")
    assert "«\xa0H,Z\xa0» n'est pas un ordre d'atouts" in text_of(start)
    assert len(bot.sessions) == 0


async def test_the_servers_defaults_shape_new_games_and_start_options_override_them(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    boss = admin(fake)
    private(
        await fake.slash(
            boss,
            fake.channel,
            "nines settings set",
            start=5,
            trumps="quebec",
            turn_timer=45,
            difficulty="hard",
        )
    )
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None
    text = lobby_text(res.message)
    assert "start at 5" in text and "trumps: quebec" in text
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.turn_seconds == 45
    # The server's usual computer level stands out among the three.
    styles = {b.label: b.style for b in res.message.buttons() if b.label.startswith("+ 🤖")}
    assert styles["+ 🤖 Hard"] == 1 and styles["+ 🤖 Easy"] == 2
    await fake.click(alice, res.message, "Cancel")

    res = await fake.slash(alice, fake.channel, "nines start", start=7, trumps="classic")
    assert res.message is not None
    text = lobby_text(res.message)
    assert "start at 7" in text and "trumps: classic" in text
    await fake.click(alice, res.message, "Cancel")

    # A server that plays Nein Nine by default; the start option picks Nines for one game.
    private(await fake.slash(boss, fake.channel, "nines settings set", ruleset="nein-nine"))
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None and "Nein Nine" in lobby_text(res.message)
    await fake.click(alice, res.message, "Cancel")
    res = await fake.slash(alice, fake.channel, "nines start", ruleset="classic")
    assert res.message is not None and "Classic (3 players)" in lobby_text(res.message)


async def test_public_messages_follow_the_servers_language_setting(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    boss = admin(fake)
    private(await fake.slash(boss, fake.channel, "nines settings set", language="fr"))
    alice = fake.add_user("alice")  # English client
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None and not res.ephemeral
    assert "Le Neuf\xa0: une table est ouverte" in lobby_text(res.message)
    assert {"Rejoindre", "Commencer", "Annuler"} <= {b.label for b in res.message.buttons()}
    # A private refusal is in the clicker's own language.
    refused = await fake.click(alice, res.message, "Rejoindre")
    assert refused.ephemeral and "You are already seated" in text_of(refused)


# -- a thread per game ------------------------------------------------------------------------


async def soon(fake: FakeDiscord, probe: Callable[[], Any]) -> Any:
    """``probe()`` once it is truthy: the bot may still be working (computers thinking) when
    settle() sees a quiet moment on a busy machine."""
    return await wait_for(fake, probe)


async def play_out(fake: FakeDiscord, bot: Any, user: User, where: Channel) -> None:
    """One person and two computers: the person plays whenever it is their turn, until the
    game is over."""

    def over_or_theirs() -> bool:
        session = next(iter(bot.sessions.all()), None)
        if session is None:
            return True
        game = session.game
        return (
            game is not None
            and game.turn is not None
            and (session.seats[game.turn].user_id == user.id)
        )

    for _ in range(200):
        # The computers play meanwhile (thinking a while on a busy machine).
        await wait_for(fake, over_or_theirs, what=f"{user.name}'s turn or the end")
        if len(bot.sessions) == 0:
            return
        # The table names them in words (its turn message alone mentions them).
        await soon(fake, lambda: whose_turn(fake, [user], where) == user)
        hand = await open_hand(fake, user, where)
        moves = enabled_moves(hand)
        if not moves:
            continue
        res = await fake.click(user, hand, moves[0])
        if res.message is not None:
            joker = [b.custom_id for b in res.message.buttons() if ":joker:" in b.custom_id]
            if joker:
                await fake.click(user, res.message, joker[0])
        await fake.settle()
    raise AssertionError("the game did not end")


async def test_a_thread_per_game_when_the_server_asks_for_it(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    boss = admin(fake)
    private(await fake.slash(boss, fake.channel, "nines settings set", threads="on"))
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start", ruleset="nein-nine", rounds=1)
    assert res.message is not None
    lobby = res.message
    thread = fake.store.channel(lobby.id)  # a thread opened from a message shares its id
    assert thread.is_thread and thread.parent_id == fake.channel.id
    assert f"<#{thread.id}>" in lobby_text(fake.store.message_by_id(lobby.id))
    row = await bot.storage.game(next(iter(bot.sessions.all())).id)
    assert row is not None and row.thread_id == thread.id and row.channel_id == fake.channel.id
    # The channel still has its one game: another start there is refused.
    busy = await fake.slash(boss, fake.channel, "nines start")
    assert busy.ephemeral and "already a game" in text_of(busy)

    await fake.click(alice, lobby, "+ 🤖 Easy")
    await fake.click(alice, lobby, "+ 🤖 Easy")
    await fake.click(alice, lobby, "Start")
    await fake.settle()
    assert table_message(fake, alice, fake.channel) is None  # the channel stays clean
    await soon(fake, lambda: table_message(fake, alice, thread))  # the table is in the thread
    session = bot.sessions.in_channel(thread.id)
    assert session is not None and bot.sessions.in_channel(fake.channel.id) is session
    # /nines hand inside the thread finds the game.
    hand = await fake.slash(alice, thread, "nines hand")
    assert hand.ephemeral and "Your hand" in text_of(hand)
    await play_out(fake, bot, alice, thread)
    ends = await soon(
        fake, lambda: [m for m in fake.visible(alice, thread) if "game over" in str(m.embeds)]
    )
    assert ends, "the game ended in its thread"
    assert len(bot.sessions) == 0


async def test_a_server_that_forbids_threads_plays_in_the_channel(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    boss = admin(fake)
    fake.set_permissions(fake.channel, fake.bot_role, deny=Perm.CREATE_PUBLIC_THREADS)
    private(await fake.slash(boss, fake.channel, "nines settings set", threads="on"))
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None and not res.errors
    await fake.click(alice, res.message, "+ 🤖 Easy")
    await fake.click(alice, res.message, "+ 🤖 Easy")
    await fake.click(alice, res.message, "Start")
    await fake.settle()
    await soon(fake, lambda: table_message(fake, alice, fake.channel))
    assert not any(c.is_thread for c in fake.store.channels.values())
    assert not [r for r in fake.requests if r.route.endswith("/threads")]  # never tried
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.channel_id == fake.channel.id


async def test_a_thread_game_is_found_from_its_channel_after_a_restart(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    await bot.storage.set_guild_settings(fake.guild.id, {"threads": "on"})
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None
    thread = fake.store.channel(res.message.id)
    # What a restart does: rebuild the sessions from storage.
    for session in bot.sessions.all():
        session.close()
    (restored,) = await bot.sessions.restore()
    assert restored.channel_id == thread.id and restored.lobby_channel_id == fake.channel.id
    assert bot.sessions.in_channel(thread.id) is restored
    assert bot.sessions.in_channel(fake.channel.id) is restored
    stopped = await fake.slash(alice, fake.channel, "nines stop")
    assert not stopped.ephemeral and "stopped the game" in (stopped.message.content or "")  # type: ignore[union-attr]
    assert bot.sessions.in_channel(thread.id) is None


# -- turn pings, and what a French admin types -------------------------------------------------


async def test_turn_pings_can_be_turned_off_and_back_on(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    boss = admin(fake)
    chef = admin(fake, "chef", locale="fr")
    assert "Turn pings: **on** (default)" in private(
        await fake.slash(boss, fake.channel, "nines settings show")
    )
    saved = private(await fake.slash(boss, fake.channel, "nines settings set", pings="off"))
    assert "Saved: Turn pings." in saved and "Turn pings: **off**" in saved
    assert await bot.storage.get_guild_settings(fake.guild.id) == {"pings": False}
    french = private(await fake.slash(chef, fake.channel, "nines settings show"))
    assert "Mentions de tour\xa0: **non**" in french
    # A table setting, not a rule: games still open and the rules still read.
    rules = await fake.slash(boss, fake.channel, "nines rules")
    assert rules.ephemeral and not rules.errors and "the rules in short" in text_of(rules)
    opened = await fake.slash(boss, fake.channel, "nines start")
    assert opened.message is not None and not opened.ephemeral and not opened.errors
    await fake.click(boss, opened.message, "Cancel")
    private(await fake.slash(chef, fake.channel, "nines settings reset", setting="pings"))
    assert await bot.storage.get_guild_settings(fake.guild.id) == {}
    assert "Mentions de tour\xa0: **oui** (par défaut)" in private(
        await fake.slash(chef, fake.channel, "nines settings show")
    )
    # Discord shows the option and its choices in French.
    registered = fake.commands.find(fake.guild.id, "nines")
    assert registered is not None
    subs = {o["name"]: o for o in registered["options"]}
    options = {
        o["name"]: o for o in {o["name"]: o for o in subs["settings"]["options"]}["set"]["options"]
    }
    assert options["pings"]["name_localizations"]["fr"] == "mentions"
    names = {c["value"]: c["name_localizations"]["fr"] for c in options["pings"]["choices"]}
    assert names == {"on": "Oui", "off": "Non"}


async def test_a_french_admin_types_trumps_in_french(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    chef = admin(fake, "chef", locale="fr")
    saved = private(await fake.slash(chef, fake.channel, "nines settings set", trumps="C,P,K,T,SA"))
    assert await bot.storage.get_guild_settings(fake.guild.id) == {"trumps": "quebec"}
    assert (
        "Ordre des atouts\xa0: **québécois (cœur, pique, carreau, trèfle et sans-atout)**" in saved
    )
    assert "Jeu\xa0: **Classique (3 joueurs)** (par défaut)" in saved  # a space before the colon
    assert "Manches (Nein Nine)\xa0: **9** (par défaut)" in saved  # one colon a line
    # /nines start reads them too: T,K,SA is clubs, diamonds, no trump for a French player.
    marie = fake.add_user("marie", locale="fr")
    res = await fake.slash(marie, fake.channel, "nines start", trumps="T, K, SA")
    assert res.message is not None and not res.ephemeral
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    assert session.rules.trumps_setting == "C,D,NT"
    assert "trumps: C,D,NT" in lobby_text(res.message)  # the server's language: English
    refused = await fake.slash(marie, fake.channel, "nines stop")
    assert not refused.errors
    # What the server stored is in the engine's words: "C" stays clubs for a French player.
    await bot.storage.set_guild_settings(fake.guild.id, {"trumps": "C"})
    res = await fake.slash(marie, fake.channel, "nines start")
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None and session.rules.trumps_setting == "C"
    rules = await fake.slash(marie, fake.channel, "nines rules")
    assert "Toutes les manches se jouent au même atout\xa0: trèfle." in text_of(rules)
    await fake.slash(marie, fake.channel, "nines stop")
    bad = private(await fake.slash(chef, fake.channel, "nines settings set", trumps="C,X"))
    assert "C (cœur), P (pique), K (carreau), T (trèfle) et SA (sans-atout)" in bad

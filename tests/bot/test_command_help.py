"""Slash-command help as a new player reads it (issue 38, item 13): the ``trumps`` option
suggests the presets as you type and still takes any order typed; the help says what each
option does; ``/nines record`` asks for a game's number, not a "game" as elsewhere."""

from __future__ import annotations

from typing import Any

from bot.words import catalogue
from fakecord import FakeDiscord
from fakecord.models import User
from fakecord.permissions import Perm

from .conftest import StartBot


def by_name(options: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in options}


def admin(fake: FakeDiscord, locale: str) -> User:
    role = fake.add_role(fake.guild, "managers", Perm.MANAGE_GUILD)
    return fake.add_user(f"chef-{locale}", locale=locale, roles=[role])


async def test_the_help_says_what_each_option_does_in_both_languages(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    nines = fake.commands.find(fake.guild.id, "nines")
    assert nines is not None
    subs = by_name(nines["options"])
    start = by_name(subs["start"]["options"])
    settings_set = by_name(by_name(subs["settings"]["options"])["set"]["options"])
    for command in (start, settings_set):
        trumps = command["trumps"]
        # suggestions, not a closed list: any order may still be typed (autocomplete and
        # choices exclude each other, per Discord's option structure)
        assert trumps["autocomplete"] is True and not trumps.get("choices")
        assert trumps["description"] == (
            "Trump order: pick a suggestion or type your own, e.g. H,S,D,C,NT"
        )
        assert "hdsc" not in trumps["description_localizations"]["fr"]
        assert "ckpt" not in trumps["description_localizations"]["fr"]
        instant = command["instant_win"]
        assert instant["description"] == "Win the moment your score reaches zero or below"
        assert "zéro ou moins" in instant["description_localizations"]["fr"]
    page = by_name(subs["leaderboard"]["options"])["page"]
    assert page["description"] == "Page of the ranking to show (10 players a page)"
    assert page["description_localizations"]["fr"] == (
        "Page du classement à afficher (10 joueurs par page)"
    )
    # /nines record: a game's number; "game" elsewhere is Nines or Nein Nine
    (number,) = subs["record"]["options"]
    assert number["name"] == "number" and number["name_localizations"]["fr"] == "numéro"
    assert number["type"] == 4  # integer
    assert "game" in by_name(subs["leaderboard"]["options"])
    autoplay = subs["autoplay"]
    assert autoplay["description"] == (
        "When you may play only one card, it is played at once for you"
        " (every server; off by default)"
    )
    assert "by themselves" not in autoplay["description"]
    assert "d'elles-mêmes" not in autoplay["description_localizations"]["fr"]


async def test_trumps_suggests_the_presets_as_you_type_and_takes_any_order(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    john = fake.add_user("john", locale="en-US")
    marie = fake.add_user("marie", locale="fr")

    everything = await fake.autocomplete(john, fake.channel, "nines start", "trumps", trumps="")
    assert [c["value"] for c in everything] == [
        "classic",
        "spades-first",
        "hdsc",
        "hcds",
        "quebec",
        "clubs-first",
    ]
    assert everything[2]["name"] == "♥♦♠♣ (hearts, diamonds, spades, clubs and no trump)"
    assert all(1 <= len(c["name"]) <= 100 for c in everything)

    quebec = await fake.autocomplete(marie, fake.channel, "nines start", "trumps", trumps="qué")
    assert quebec == [
        {"name": "québécois (cœur, pique, carreau, trèfle et sans-atout)", "value": "quebec"}
    ]
    # an order of one's own is read back in words, offered first
    typed = await fake.autocomplete(marie, fake.channel, "nines start", "trumps", trumps="C,P,SA")
    assert typed[0] == {"name": "C,P,SA (cœur, pique et sans-atout)", "value": "C,P,SA"}
    # the former French names of two presets still find them
    assert [
        c["value"]
        for c in await fake.autocomplete(
            marie, fake.channel, "nines start", "trumps", trumps="ckpt"
        )
    ] == ["hdsc"]
    chef = admin(fake, "fr")
    in_settings = await fake.autocomplete(
        chef, fake.channel, "nines settings set", "trumps", trumps="tr"
    )
    assert [c["value"] for c in in_settings] == ["clubs-first"]  # trèfle-en-premier

    # Picked: the preset's engine name is sent; typed: the text as typed, read as before.
    picked = await fake.slash(john, fake.channel, "nines start", trumps="hdsc")
    assert picked.message is not None and not picked.ephemeral, picked
    (session,) = bot.sessions.all()
    assert session.rules.trumps_setting == "hdsc"
    other = fake.add_channel(name="other")
    typed_game = await fake.slash(marie, other, "nines start", trumps="C,P,SA")
    assert typed_game.message is not None and not typed_game.ephemeral, typed_game
    session = next(s for s in bot.sessions.all() if s.channel_id == other.id)
    assert session.rules.trumps_setting == "H,S,NT"


def test_the_swap_rate_reads_as_a_sentence() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    assert en["stats.swaps"] == "Swapped for the spare hand: {rate}% of the times they could"
    assert fr["stats.swaps"] == "A pris le chômeur\xa0: {rate}\xa0% des fois où c'était possible"

"""``/nines rules`` tells the game as it will be played: its own text per ruleset, every setting
in words, in the reader's language, from the server's settings or from the game open here."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.nines.render import rules_embed, rules_line
from engine import Rules
from fakecord import FakeDiscord
from fakecord.models import Message, User
from fakecord.permissions import Perm

from .conftest import StartBot

#: trumps=quebec, start=7, exchange=dealer, as a French admin types them (Quebec letters).
CHANGED_FR = {"trumps": "C,P,K,T,SA", "start": 7, "exchange": "dealer"}


def fields(message: Message) -> dict[str, str]:
    """Each section's text as one paragraph: the embed breaks it into lines a phone holds
    (issue 38, item 4), after a sentence or a clause."""
    (embed,) = message.embeds
    return {f["name"]: f["value"].replace("\n", " ") for f in embed.get("fields", [])}


def everything(message: Message) -> str:
    (embed,) = message.embeds
    # The settings, on lines a phone holds, read as the one list they are.
    footer = str(embed.get("footer", {}).get("text", "")).replace("\n", " · ")
    parts = [str(embed.get("title")), footer]
    return "\n".join([*parts, *(f"{k}\n{v}" for k, v in fields(message).items())])


def admin(fake: FakeDiscord, locale: str) -> User:
    role = fake.add_role(fake.guild, "managers", Perm.MANAGE_GUILD)
    return fake.add_user("chef", locale=locale, roles=[role])


async def rules_for(fake: FakeDiscord, user: User, **options: Any) -> Message:
    res = await fake.slash(user, fake.channel, "nines rules", **options)
    assert not res.errors and res.ephemeral and res.message is not None
    return res.message


#: What each ruleset says with trumps=quebec, start=7, exchange=dealer, per language.
EXPECTED: dict[str, dict[str, list[str]]] = {
    "classic": {
        "en": [
            "Each player gets 13 cards; a fourth hand of 13, the spare hand",
            "In turn, starting with the dealer, then the player to their left",
            "in this order (quebec): hearts, spades, diamonds, clubs and no trump",
            "Everyone starts at 7 with a quota of 4 tricks",
            "No instant win",
            "someone is at 0 or below: the lowest score wins",
            "everyone plays more hands until one ends with a single player alone at the lowest",
        ],
        "fr": [
            "une quatrième main de 13 cartes, le chômeur",
            "en commençant par le brasseur, puis le joueur à sa gauche",
            "dans cet ordre (québécois)\xa0: cœur, pique, carreau, trèfle et sans-atout",
            "Tout le monde part de 7 avec un quota de 4 plis",
            "Pas de victoire immédiate",
            "quelqu'un arrive à 0 ou moins\xa0: le score le plus bas gagne",
            "jusqu'à ce qu'une manche se termine avec un seul joueur au score le plus bas",
        ],
    },
    "partnership": {
        "en": [
            "Four players in two teams, partners sitting opposite",
            "in this order (quebec): hearts, spades, diamonds, clubs and no trump",
            "Each team starts at 7 with a quota of 6 tricks",
            "The first team at 0 or below wins",
        ],
        "fr": [
            "Quatre joueurs en deux équipes, les partenaires face à face",
            "dans cet ordre (québécois)\xa0: cœur, pique, carreau, trèfle et sans-atout",
            "Chaque équipe part de 7 avec un quota de 6 plis",
            "La première équipe à 0 ou moins gagne",
        ],
    },
    "four-player": {
        "en": [
            "Four players, each for themselves",
            "in this order (quebec): hearts, spades, diamonds, clubs and no trump",
            "Everyone starts at 7 with a quota of 3 tricks",
            "the lowest score wins",
        ],
        "fr": [
            "Quatre joueurs, chacun pour soi",
            "dans cet ordre (québécois)\xa0: cœur, pique, carreau, trèfle et sans-atout",
            "Tout le monde part de 7 avec un quota de 3 plis",
            "le score le plus bas gagne",
        ],
    },
    "nein-nine": {
        "en": [
            "21 cards: the 7, 8, 9, 10 and jack of each suit, and a Joker",
            "The first 8 played makes its suit trump",
            "one 9 costs 1 point, two 9s cost 2 in all, three cost 4, four cost 8",
            "The game ends after 9 rounds, or as soon as a round ends with someone at +9 or more",
            "The highest score wins",
        ],
        "fr": [
            "21 cartes\xa0: les 7, 8, 9, 10 et valets de chaque couleur, et un Joker",
            "Le premier 8 joué fait de sa couleur l'atout",
            "un 9 coûte 1 point, deux 9 en coûtent 2 en tout, trois en coûtent 4, quatre en "
            "coûtent 8",
            "La partie se termine après 9 manches, ou dès qu'une manche se termine avec "
            "quelqu'un à +9 ou plus",
            "Le score le plus haut gagne",
        ],
    },
}


@pytest.mark.parametrize("ruleset", list(EXPECTED))
async def test_rules_follow_the_servers_settings_for_each_ruleset_in_both_languages(
    fake_discord: FakeDiscord, start_bot: StartBot, ruleset: str
) -> None:
    fake = fake_discord
    await start_bot()
    chef = admin(fake, "fr")
    saved = await fake.slash(
        chef, fake.channel, "nines settings set", ruleset=ruleset, **CHANGED_FR
    )
    assert saved.ephemeral and not saved.errors
    readers = {
        "en": fake.add_user("john", locale="en-US"),
        "fr": fake.add_user("marie", locale="fr"),
    }
    for lang, reader in readers.items():
        text = everything(await rules_for(fake, reader))
        for expected in EXPECTED[ruleset][lang]:
            assert expected in text, (ruleset, lang, expected, text)
        if ruleset != "nein-nine":  # the defaults these settings replaced are gone
            assert "hearts, diamonds" not in text and "cœur, carreau" not in text
            assert "starts at 9" not in text and "part de 9" not in text
        spare = ("spare", "Exchange") if lang == "en" else ("chômeur", "Échange")
        if ruleset == "classic":
            assert spare[1] in fields(await rules_for(fake, reader))
        else:  # no spare hand, so no exchange to tell about
            assert spare[1] not in fields(await rules_for(fake, reader))


async def test_default_rules_and_the_other_settings_in_words(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    john = fake.add_user("john")
    text = everything(await rules_for(fake, john))
    assert "starting with the player left of the dealer" in text
    assert "in this order (classic): hearts, diamonds, clubs, spades and no trump" in text
    assert "Everyone starts at 9 with a quota of 4 tricks" in text
    await bot.storage.set_guild_settings(
        fake.guild.id, {"ties": "joint", "instant_win": "on", "trumps": "S", "rounds": 1}
    )
    text = everything(await rules_for(fake, john))
    assert "If players tie for the lowest score, they share the win." in text
    assert "Instant win: a score drops the moment a trick over quota is taken" in text
    assert "Every hand is played with the same trump: spades." in text
    nein = everything(await rules_for(fake, john, game="nein-nine"))
    assert "The game ends after 1 round," in nein  # one round: the singular
    marie = fake.add_user("marie", locale="fr")
    nein_fr = everything(await rules_for(fake, marie, game="nein-nine"))
    assert "La partie se termine après 1 manche," in nein_fr
    text_fr = everything(await rules_for(fake, marie, game="nines"))
    assert "les joueurs à égalité se partagent la victoire" in text_fr
    assert "Toutes les manches se jouent au même atout\xa0: pique." in text_fr
    await bot.storage.set_guild_settings(fake.guild.id, {"trumps": "NT"})
    never = everything(await rules_for(fake, marie))
    assert "Toutes les manches se jouent sans atout" in never


async def test_rules_asked_beside_an_open_game_tell_that_game(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    opened = await fake.slash(alice, fake.channel, "nines start", start=5, trumps="hcds")
    assert opened.message is not None and not opened.ephemeral
    text = everything(await rules_for(fake, alice))
    assert "Everyone starts at 5" in text
    assert "(♥♣♦♠): hearts, clubs, diamonds, spades and no trump" in text
    # Asking about the other game tells the server's Nein Nine, not the open Nines.
    assert "21 cards" in everything(await rules_for(fake, alice, game="nein-nine"))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("ruleset", list(EXPECTED))
def test_each_ruleset_has_its_own_text_and_fits_an_embed(lang: str, ruleset: str) -> None:
    texts = {name: rules_embed(lang, Rules.from_settings(name)).to_dict() for name in EXPECTED}
    mine = texts.pop(ruleset)
    assert all(other["fields"] != mine["fields"] for other in texts.values())
    size = len(mine["title"]) + len(mine["footer"]["text"])
    size += sum(len(f["name"]) + len(f["value"]) for f in mine["fields"])
    assert size < 6000 and all(len(f["value"]) <= 1024 for f in mine["fields"])


def test_the_settings_line_leaves_out_ties_where_none_can_happen() -> None:
    """N10: in partnership one team alone reaches 0, so the ties setting changes nothing and
    the lobby and rules do not list it; the other Nines games do."""
    for lang, ties in (("en", "ties: "), ("fr", "égalités\xa0: ")):
        assert ties not in rules_line(lang, Rules.from_settings("partnership"))
        assert ties in rules_line(lang, Rules.from_settings("classic"))
        assert ties in rules_line(lang, Rules.from_settings("four-player"))


@pytest.mark.parametrize(
    ("lang", "led", "stones"),
    [
        ("en", "the next card played sets the suit led", "light stones ○"),
        ("fr", "la carte jouée après lui fixe la couleur", "pierres claires ○"),
    ],
)
def test_rules_tell_a_led_joker_and_the_stones(lang: str, led: str, stones: str) -> None:
    """Issue 29: a led Joker (G7), the stones (G10) in Nein Nine, and nothing of either in
    Nines; no rules text explains a sum of the sheet's scores any more, since the sheet has
    none (issue 46, item 8)."""
    nein_embed = rules_embed(lang, Rules.from_settings("nein-nine"))
    nein_text = " ".join(str(f.value) for f in nein_embed.fields)
    assert led in nein_text and stones in nein_text and "Tot" not in nein_text
    for ruleset in ("classic", "partnership", "four-player"):
        embed = rules_embed(lang, Rules.from_settings(ruleset))
        text = " ".join(str(f.value) for f in embed.fields)
        assert "13" in text and stones not in text and "Tot" not in text, ruleset


@pytest.mark.parametrize("ruleset", list(EXPECTED))
def test_the_rules_say_what_a_time_out_does(ruleset: str) -> None:
    """Issue 38, item 12: a computer plays for whoever runs out of time; after two time-outs
    in a row it keeps the seat until "I'm back" (PRODUCT: players who are not there)."""
    from bot.game import TIMEOUTS_BEFORE_AWAY
    from cogs.nines.rules_text import rules_sections

    assert TIMEOUTS_BEFORE_AWAY == 2
    en = dict(rules_sections("en", Rules.from_settings(ruleset)))["Turn timer"]
    assert "a computer player makes that move for you" in en
    assert (
        "after 2 time-outs in a row, the computer plays your seat until you click “I'm back”" in en
    )
    fr = dict(rules_sections("fr", Rules.from_settings(ruleset)))["Minuterie"]
    assert "un robot fait ce coup pour vous" in fr
    assert "après 2 fois de suite" in fr and "«\xa0Je suis de retour\xa0»" in fr


def test_nein_nine_rules_keep_the_suit_led_when_an_eight_sets_trump_later() -> None:
    """Issue 38, item 12 (RULINGS G6): the suit led is the first card's when it was led, even
    once an 8 later in the trick makes trump and turns that card into a Spit; as the engine
    plays it."""
    from cogs.nines.rules_text import rules_sections
    from engine import led_suit
    from engine.cards import Card, Suit

    rules = Rules.from_settings("nein-nine")
    en = dict(rules_sections("en", rules))["Trump"]
    assert "The suit led is the suit the trick's first card had when it was led." in en
    assert "It stays the same when an 8 played later in that trick makes its suit trump" in en
    fr = dict(rules_sections("fr", rules))["Atout"]
    assert "Elle ne change pas quand un 8 joué plus tard dans ce pli" in fr
    # 7♥ led, then 8♦ makes diamonds trump: the 7♥ is now the Little Spit, hearts still led
    trick = [Card.parse("7H"), Card.parse("8D")]
    assert led_suit(trick, Suit.DIAMONDS) is Suit.HEARTS
    # and no 8 in the trick: a Spit led leads trumps
    assert led_suit([Card.parse("7H")], Suit.DIAMONDS) is Suit.DIAMONDS


def test_nein_nine_rules_say_the_joker_is_not_a_nine() -> None:
    """Issue 38, item 12 (RULINGS G7): the Joker is no 9, for the first dealer (G2) and the
    9s' penalty (G8)."""
    from cogs.nines.rules_text import rules_sections

    rules = Rules.from_settings("nein-nine")
    en = dict(rules_sections("en", rules))["Joker"]
    assert "The Joker is not a 9: it does not pick the first dealer" in en
    assert "it costs no point in your tricks" in en
    fr = dict(rules_sections("fr", rules))["Joker"]
    assert "Le Joker n'est pas un 9\xa0: il ne désigne pas le premier brasseur" in fr

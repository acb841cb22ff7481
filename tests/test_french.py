"""French as Quebec plays it: the source's words (003: pli, manche, brasseur; 000: chômeur), no
English left inside French, French typography, and what a French admin types understood.

The English detector's lexicon is every word of the English catalogue (so a string copied
from English, or an English setting value put in a French sentence, is caught) plus common
English words the catalogue may not hold; words French shares with English are allowed one by
one below, with the reason.
"""

from __future__ import annotations

import doctest
import functools
import importlib
import re
from collections.abc import Iterator

import discord
import pytest

from bot.words import catalogue, read_trumps, tr
from cogs.nines.render import rules_embed, rules_line
from cogs.nines.setting_values import DEFAULTS, KEYS, SettingsInvalid, validate
from cogs.nines.settings import settings_embed
from engine import RULESETS, TRUMP_PRESETS, Rules

WORD = re.compile(r"[^\W\d_]+")
PLACEHOLDER = re.compile(r"\{[^}]*\}")
#: Identifiers that are names, not words: a file format ("nines-record/1").
IDENTIFIER = re.compile(r"\S+/\d+")

#: Common English words the catalogue may not hold, the game's own among them.
COMMON_ENGLISH_TEXT = """
    the and of to is are was be you your yours it its with for not this that these those
    game games player players trick tricks hand hands round rounds dealer deal deals left right
    first last next off yes no easy hard classic quebec spades hearts diamonds clubs trump
    trumps win wins won lose loses lost start stop join leave keep swap spare seat seats turn
    time out up down back by from or all every each none some any who what when where which
    how here there now then than please sorry done refresh settings setting rules history
    leaderboard rating ratings team teams partner partners thread threads ping pings timer
    language server channel card cards ace king queen jack ties tie joint play played auto
    hdsc hcds shared share wait waiting mine my we they them he she his her has have had will
    would can could should must may might do does did doing go goes went get got give take
    took taken taking over under again only also still just more most less
"""
COMMON_ENGLISH = frozenset(COMMON_ENGLISH_TEXT.split())

#: Words that are French as well (or a French abbreviation); each one checked in context.
FRENCH_TOO = {
    "a",  # il a
    "as",  # l'as (ace)
    "at",  # At: the score sheet's short for atout
    "c",  # C: cœur (a letter a French admin types)
    "d",  # d'abord
    "e",  # 2e: the ordinal's ending (deuxième)
    "p",  # P: pique
    "s",  # s'il, s'arrête
    "j",  # J1: joueur 1 on the score sheet
    "en",  # en équipes
    "fr",  # the language code
    "me",  # il me faut
    "met",  # il met, se met (and the English "met" of the tournament's scoring help)
    "on",  # on continue
    "change",  # l'atout change
    "face",  # face cachée
    "format",  # format JSON
    "instant",  # pour l'instant
    "message",
    "messages",
    "moment",  # à tout moment
    "normal",
    "options",
    "page",
    "plus",
    "point",
    "quota",
    "quotas",  # des quotas de 12
    "score",
    "scores",
    "six",
    "français",  # the English catalogue names French in French
    "stats",  # abbreviation of statistiques
    "table",
    "points",  # « Un pli vaut 1 point », « coûte des points », points de match
    "match",  # points de match (a tournament's duplicate scoring)
    "total",  # le total de la partie tournante (issue 47: a duplicate sheet's last row)
    "tr",  # Tr: trèfle on the French score sheet (Pi Co Ca Tr, issue 46)
    # A tournament's words (issue 48), French as they are.
    "champion",  # le rôle de champion
    "final",  # classement final
    "minutes",
    "pause",  # en pause
    "place",  # la place 0 brasse
    "places",
    "possible",
    "tables",
    "no",  # n° (numéro)
    # Proper names.
    "discord",
    "joker",
    "json",
    "nein",
    "nine",
}
#: The language picker names each language in itself.
OWN_NAMES = {"discord.choice.en": {"english"}}


def words(text: str) -> set[str]:
    text = IDENTIFIER.sub(" ", PLACEHOLDER.sub(" ", text))
    return {w.lower() for w in WORD.findall(text)}


@functools.cache  # the catalogue does not change within a run; read once, not per text
def english_lexicon() -> frozenset[str]:
    found = set(COMMON_ENGLISH)
    for text in catalogue("en").values():
        found |= words(text)
    return frozenset(found - FRENCH_TOO)


def english_in(text: str, allowed: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
    return words(text) & english_lexicon() - allowed


def test_the_detector_catches_english() -> None:
    """The words the issue found inside French, and a sentence copied from English."""
    assert english_in("easy, normal ou hard") == {"easy", "hard"}
    assert english_in("left ou dealer") == {"left", "dealer"}
    assert english_in("on ou off") == {"off"}
    assert english_in("atouts quebec") == {"quebec"}
    assert english_in(catalogue("en")["error.not_your_turn"])
    assert english_in(catalogue("fr")["error.not_your_turn"]) == set()


def test_no_english_word_in_any_french_string() -> None:
    """Every French message and every French command, option and choice name."""
    found = {
        key: sorted(english_in(text, OWN_NAMES.get(key, set())))
        for key, text in catalogue("fr").items()
    }
    assert {k: v for k, v in found.items() if v} == {}


def embed_text(embed: discord.Embed) -> str:
    """What a person reads in an embed: title, description, fields, footer."""
    fields = [f"{f.name}\n{f.value}" for f in embed.fields]
    parts = [embed.title, embed.description, *fields, embed.footer.text]
    return "\n".join(p for p in parts if p)


def rendered_french() -> Iterator[tuple[str, str]]:
    """French texts built from values: rules, settings, refusals."""
    variants: list[dict[str, object]] = [
        {},
        {"trumps": "quebec", "start": 7, "exchange": "dealer"},
        {"ties": "joint", "instant_win": "on", "trumps": "H,S,NT", "rounds": 1, "limit": 4},
        *({"trumps": preset} for preset in TRUMP_PRESETS),
    ]
    for name in RULESETS:
        for settings in variants:
            rules = Rules.from_settings(name, settings)
            yield f"rules {name} {settings}", embed_text(rules_embed("fr", rules))
            yield f"line {name} {settings}", rules_line("fr", rules)
    changed = {"ruleset": "four-player", "threads": "on", "pings": False, "language": "en"}
    for stored in ({}, changed, {**changed, "trumps": "H,S", "difficulty": "hard"}):
        yield f"settings {stored}", embed_text(settings_embed("fr", stored))
    for key in (*KEYS, "zzz"):  # "zzz": what a person typed is theirs, not ours
        try:
            validate({key: "zzz"})
        except SettingsInvalid as refusal:
            yield f"refusal {key}", tr("fr", refusal.key, **refusal.params)


def test_no_english_in_french_built_from_values() -> None:
    found = {where: sorted(english_in(text) - {"zzz"}) for where, text in rendered_french()}
    assert len(found) > 80
    assert {k: v for k, v in found.items() if v} == {}


# -- the source's words and the issue's list ---------------------------------------------------


def test_the_words_of_the_quebec_source() -> None:
    """pli, manche, brasseur, chômeur (003, 000); never levée, donne, donneur, veuve."""
    fr = catalogue("fr")
    text = " ".join(fr.values()).lower()
    for word in ("pli", "plis", "manche", "brasseur", "chômeur"):
        assert re.search(rf"\b{word}\b", text), word
    for word in ("levée", "levées", "donne", "donnes", "donneur", "veuve", "crachat"):
        assert not re.search(rf"\b{word}\b", text), word


def test_the_current_trick_and_the_tricks_won_read_differently() -> None:
    """Not "Levée :" beside "Levées :": the labels differ by more than a plural s."""

    def stems(label: str) -> set[str]:
        return {w.lower().rstrip("s") for w in label.split(":")[0].split()}

    for lang in ("en", "fr"):
        current = stems(tr(lang, "table.trick", cards=""))
        won = stems(tr(lang, "table.tricks", tricks=""))
        assert current != won and current - won and won - current, lang
    assert not stems("Levée :") - stems("Levées :")  # what the test guards against


def test_the_issues_french_items() -> None:
    fr = catalogue("fr")
    assert "écoulé" not in fr["table.deadline"]  # it read as "time's up"
    assert fr["discord.cmd.forget"] == "oubliez-moi"  # vous, like everything else
    joined = " ".join(fr.values())
    assert "joueurs ordinateur" not in joined
    assert "Êtes-vous sûr" not in joined and "vous êtes oublié" not in joined  # ungendered
    assert not re.search(r"\b[Vv]ous seul\b", joined)
    # Issue 29: accented command names, "terminée", "robot" (never "l'ordinateur"), a lowercase
    # adjective after "Robot", no sentence around a timestamp that Discord writes in the
    # reader's language.
    names = {v for k, v in fr.items() if k.startswith("discord.")}
    accented = {"règles", "réglages", "relevé", "arrêter", "rétablir", "égalités", "départ"}
    assert accented | {"victoire_immédiate", "échange", "réglage"} <= names
    assert "est terminée" in fr["summary.title_hand"] and not re.search(r"\bfinie\b", joined)
    assert "ordinateur" not in joined.lower()
    assert tr("fr", "computer.name.normal") == "🤖 Robot normal"
    assert tr("en", "computer.name.normal") == "🤖 Normal bot"
    assert fr["table.deadline"] == "· ⏳ {when}" == catalogue("en")["table.deadline"]


NBSP, NNBSP = "\u00a0", "\u202f"
#: The OQLF's spaces (the lead's choice among its options): a no-break space U+00A0 before
#: « : » and « % » and inside guillemets, a narrow no-break space U+202F before ; ! ?
TYPOGRAPHY = (
    (re.compile(r"(?<!\u00a0)[:%](?!//)"), "U+00A0 before : or %"),
    (re.compile(r"(?<!\u202f)[;!?]"), "U+202F before ; ! ?"),
    (re.compile(r"«(?!\u00a0)|(?<!\u00a0)»"), "U+00A0 inside guillemets"),
    (re.compile(r"n°(?!\u00a0)"), "U+00A0 after n° (its number never alone on a line)"),
)


def typography_faults(text: str) -> list[str]:
    """What breaks French typography in ``text`` (placeholders, mentions and timestamps,
    emoji and the monospace sheet aside), with the place it happens."""
    prose = NOT_PROSE.sub(" ", PLACEHOLDER.sub("x", text))
    return [
        f"{why}: {prose[max(0, m.start() - 12) : m.end() + 3]!r}"
        for pattern, why in TYPOGRAPHY
        for m in pattern.finditer(prose)
    ]


def test_the_typography_check_catches_ordinary_spaces() -> None:
    assert typography_faults("votre score : 3, 50 % du temps, « gagne » ; oui ! non ?") != []
    assert len(typography_faults("score : 3 · 50 % · « gagne »")) == 4
    fine = f"score{NBSP}: 3 · 50{NBSP}% · «{NBSP}gagne{NBSP}»{NNBSP}; oui{NNBSP}! <t:1:R>"
    assert typography_faults(fine) == []


def test_the_whole_french_catalogue_follows_oqlf_typography() -> None:
    faults = {k: typography_faults(v) for k, v in catalogue("fr").items()}
    assert {k: v for k, v in faults.items() if v} == {}


def test_french_built_from_values_follows_oqlf_typography() -> None:
    faults = {where: typography_faults(text) for where, text in rendered_french()}
    assert len(faults) > 80
    assert {k: v for k, v in faults.items() if v} == {}


def test_french_typography_a_space_before_a_colon() -> None:
    """French puts a space before a colon; a line never has two."""
    for key, text in catalogue("fr").items():
        bare = PLACEHOLDER.sub("x", text)
        assert not re.search(r"\S:(?!//)", bare), (key, text)
    embed = settings_embed("fr", {"rounds": 5, "limit": 4})
    for line in (embed.description or "").splitlines():
        assert line.count(":") == 1 and f"{NBSP}: **" in line, line


def test_numbers_are_written_the_french_way() -> None:
    from cogs.nines.render import stats_embed

    class Row:
        games, wins, tricks, hands, swaps, exchanges = 3, 1, 21, 5, 1, 3
        rating, best_place = 1012.4, 1

    text = stats_embed("fr", "Élodie", "nines", Row()).description or ""  # type: ignore[arg-type]
    assert f"Plis par manche en moyenne{NBSP}: 4,20" in text
    assert "4.20" not in text


def test_leaderboard_rows_count_in_each_language() -> None:
    from cogs.nines.render import leaderboard_embed

    class Row:
        name, rating, games, wins = "Élodie", 1500.0, 1, 0

    en = leaderboard_embed("en", "nines", 1, 1, [Row()], [], 1).description  # type: ignore[list-item]
    fr = leaderboard_embed("fr", "nines", 1, 1, [Row()], [], 1).description  # type: ignore[list-item]
    assert "· 1 game · 0 wins (0%)" in str(en)
    assert f"· 1 partie · 0 victoire (0{NBSP}%)" in str(fr)


# -- what a French admin types -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "lang", "engine"),
    [
        ("C,P,K,T,SA", "fr", "quebec"),  # C is cœur in French...
        ("C,D,H,S,NT", "en", "clubs-first"),  # ...and clubs in English
        ("T,K", "fr", "C,D"),
        ("cœur, pique, sans atout", "fr", "H,S,NT"),
        ("Coeur Carreau Trèfle Pique Sans-atout", "fr", "classic"),
        ("québécois", "fr", "quebec"),
        ("Pique en premier", "fr", "spades-first"),
        ("ckpt", "fr", "hdsc"),
        ("H,S,D,C,NT", "fr", "quebec"),  # English letters still work for a French admin
        ("quebec", "fr", "quebec"),
        ("sa", "fr", "NT"),
    ],
)
def test_trump_orders_typed_in_french_or_english(typed: str, lang: str, engine: str) -> None:
    assert read_trumps(typed, lang) == engine
    assert validate({"trumps": typed}, lang) == {"trumps": engine}


@pytest.mark.parametrize(
    ("key", "typed", "stored"),
    [
        ("exchange", "brasseur", "dealer"),
        ("exchange", "gauche", "left"),
        ("ties", "partager", "joint"),
        ("ties", "continuer", "play-on"),
        ("instant_win", "oui", "on"),
        ("threads", "non", "off"),
        ("difficulty", "difficile", "hard"),
        ("difficulty", "facile", "easy"),
        ("language", "automatique", ""),
        ("pings", "non", False),
        ("pings", "oui", True),
        ("pings", "off", False),
    ],
)
def test_french_values_are_accepted(key: str, typed: str, stored: object) -> None:
    assert validate({key: typed}, "fr") == {key: stored}


def test_pings_default_on() -> None:
    assert DEFAULTS["pings"] is True
    assert "pings" in KEYS
    with pytest.raises(SettingsInvalid) as refusal:
        validate({"pings": "parfois"})
    assert refusal.value.key == "settings.error.pings"
    assert f"«{NBSP}parfois{NBSP}»" in tr("fr", refusal.value.key, **refusal.value.params)


@pytest.mark.parametrize(
    "name", ["bot.words.i18n", "cogs.nines.setting_values", "cogs.nines.rules_text"]
)
def test_docstring_examples(name: str) -> None:
    # The module as imported now: starting the bot loads the cog's modules afresh.
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_a_french_rules_embed_reads_as_a_whole() -> None:
    embed = rules_embed("fr", Rules.from_settings("classic", {"trumps": "quebec"}))
    assert isinstance(embed, discord.Embed)
    names = [f.name for f in embed.fields]
    assert names == [
        "Joueurs et cartes",
        "Brasseur",
        "Échange",
        "Jeu",
        "Atout",
        "Points",
        "Fin de la partie",
        "Minuterie",
        "Partie du jour et tournante",
    ]


def test_a_players_record_reads_in_each_language() -> None:
    """Places as ordinals (1re, 2e; 1st, 2nd), the rating grouped the language's way, and no
    swap rate for a game without an exchange (Nein Nine: 0 % would say nothing)."""
    from cogs.nines.render import stats_embed

    class Nines:
        games, wins, tricks, hands, swaps, exchanges = 12, 5, 40, 30, 3, 20
        rating, best_place = 1234.4, 1

    class NeinNine(Nines):
        swaps, exchanges, best_place = 0, 0, 2

    fr = stats_embed("fr", "Élodie", "nines", Nines()).description or ""  # type: ignore[arg-type]
    en = stats_embed("en", "Élodie", "nines", Nines()).description or ""  # type: ignore[arg-type]
    assert f"Cote{NBSP}: 1\xa0234" in fr and f"Meilleure place{NBSP}: 1re" in fr
    assert f"15{NBSP}%" in fr
    assert "Rating: 1,234" in en and "Best finish: 1st" in en and "15%" in en
    fr = stats_embed("fr", "Élodie", "nein-nine", NeinNine()).description or ""  # type: ignore[arg-type]
    en = stats_embed("en", "Élodie", "nein-nine", NeinNine()).description or ""  # type: ignore[arg-type]
    assert f"Meilleure place{NBSP}: 2e" in fr and "Best finish: 2nd" in en
    assert "chômeur" not in fr and "spare" not in en


def french_game_texts(ruleset: str) -> Iterator[tuple[str, str]]:
    """Every text a French table shows over one whole game of ``ruleset``: the lobby, the
    table and each hand as play goes, each hand's summary, the end; field names apart."""
    from types import SimpleNamespace

    from bot.game.session import SeatInfo
    from bot.table import build, build_lobby, trick_of
    from cogs.nines import render
    from engine import Game, HandEnded
    from engine.cli import random_game

    rules = Rules.from_settings(ruleset, {"start": 3})
    played = random_game(rules, 5)
    names = ["Élodie Côté", "Alexandre", "🤖 Robot normal", "🤖 Robot normal 2"]
    seats = [SeatInfo(n, user_id=None if "🤖" in n else 10**17 + i) for i, n in enumerate(names)]
    game = Game(rules, 5)
    session = SimpleNamespace(
        game=game,
        seats=seats[: rules.players],
        id=7,
        n=3,
        rules=rules,
        players=rules.players,
        language="fr",
        status="lobby",
        closed=False,
        lobby_deadline=0.0,
        deadline=None,
        host_id=seats[0].user_id,
        channel_id=1,
        lobby_channel_id=1,
    )

    def embed_texts(where: str, embed: discord.Embed) -> Iterator[tuple[str, str]]:
        yield f"{where} title", embed.title or ""
        yield f"{where} description", embed.description or ""
        for field in embed.fields:
            yield f"{where} field name", field.name or ""
            yield f"{where} field {field.name}", field.value or ""

    yield from embed_texts("lobby", render.lobby_embed("fr", build_lobby(session)))
    for seat, action in played.log:
        yield from embed_texts("table", render.table_embed("fr", build(session, None)))
        if game.turn is not None:
            yield "hand", render.hand_content("fr", build(session, game.turn))
        for event in game.apply(seat, action):
            if isinstance(event, HandEnded):
                tricks = [
                    trick_of(t, rules.players) for t in game.hands_log[event.number - 1].tricks
                ]
                summary = render.hand_summary("fr", build(session, None), event, tricks)
                yield from embed_texts("summary", summary)
    assert game.winners is not None
    yield from embed_texts("end", render.end_embed("fr", build(session, None), []))


#: What is not prose: mentions, timestamps, emoji (<...>), the monospace score sheet.
NOT_PROSE = re.compile(r"<[^>]*>|```.*?```", re.S)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_french_game_from_lobby_to_end_is_french_typography(ruleset: str) -> None:
    """The OQLF's no-break spaces before : ; ? ! % and inside guillemets, never a name on a
    field (Discord prints a field's name as a heading: no colon of ours), and no English word."""
    seen = 0
    for where, text in french_game_texts(ruleset):
        prose = NOT_PROSE.sub(" ", text)
        assert typography_faults(text) == [], (where, text)
        if where.endswith("field name"):
            assert not text.rstrip().endswith(":"), (where, text)
        names = {"élodie", "côté", "alexandre", "robot", "normal"}
        assert english_in(prose, names) == set(), (where, text)
        seen += 1
    assert seen > 100


def test_the_third_passes_french_wording() -> None:
    """Issue 38, item 14: « le score le plus bas » (never « le plus bas score »), a single
    winner said plainly, the swap rate as a sentence, no ``&`` in running text, and the
    presets shown by their suits rather than as ckpt or ctkp."""
    from bot.words import and_list, trumps_label

    fr = catalogue("fr")
    joined = " ".join(fr.values())
    for clumsy in ("plus bas score", "plus haut score", "un seul plus", "seul score le plus"):
        assert clumsy not in joined, clumsy
    assert fr["value.play-on"] == "on continue jusqu'à un seul gagnant"
    assert fr["chart.lower_better"] == "↓ le score le plus bas gagne"
    assert "le score le plus bas gagne" in fr["rules.end.nines"]
    assert "Échange sa main" not in joined and "% du temps" not in joined
    assert not any("&" in text for text in (*fr.values(), *catalogue("en").values()))
    assert and_list("fr", ["Élodie", "Alex"]) == "Élodie et Alex"
    for hidden in ("ckpt", "ctkp"):
        assert hidden not in joined
    assert trumps_label("fr", "hdsc") == trumps_label("en", "hdsc") == "♥♦♠♣"
    assert trumps_label("fr", "hcds") == "♥♣♦♠"
    rules = Rules.from_settings("classic", {"trumps": "hdsc"})
    assert "atouts\xa0: ♥♦♠♣" in rules_line("fr", rules)
    # what a French admin learned still works: the former names, the engine's, the suits
    for typed in ("ckpt", "hdsc", "♥♦♠♣"):
        assert validate({"trumps": typed}, "fr") == {"trumps": "hdsc"}

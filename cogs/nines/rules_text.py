"""``/nines rules``: the game told as it will be played, one text per ruleset, every setting in
words (RULINGS N1-N11 for Nines, G1-G11 for Nein Nine).

>>> rules = Rules.from_settings("classic", {"trumps": "quebec", "exchange": "dealer"})
>>> sections = dict(rules_sections("en", rules))
>>> sections["Trump"]
'Trump changes every hand, in this order (quebec): hearts, spades, diamonds, clubs and no \
trump; then the order starts again.'
>>> sections["Exchange"].startswith("In turn, starting with the dealer,")
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.game import TIMEOUTS_BEFORE_AWAY
from bot.words import tr, trump_order, trumps_label
from engine import NEIN_NINE, NINES, TRUMP_PRESETS, GameType, Rules
from engine.games.nines import MAX_HANDS

Section = tuple[str, str]  # a heading and its text


def rules_sections(lang: str, rules: Rules) -> list[Section]:
    """The rules of ``rules``' game with its settings, as headed paragraphs."""
    return TEXTS[rules.kind](lang, rules)


def _section(lang: str, heading: str, *paragraphs: str) -> Section:
    return tr(lang, f"rules.h.{heading}"), " ".join(paragraphs)


def _time(lang: str) -> Section:
    """What a time-out does (PRODUCT: players who are not there): the computer makes the
    move; after TIMEOUTS_BEFORE_AWAY in a row it keeps the seat until "I'm back"."""
    text = tr(lang, "rules.time", times=TIMEOUTS_BEFORE_AWAY, back=tr(lang, "button.back"))
    return _section(lang, "time", text)


def _daily(lang: str) -> Section:
    """How the daily deal is scored, and a duplicate match at a table of friends the same way
    (issue 47; the precise definition: engine/duplicate.py)."""
    return _section(lang, "daily", tr(lang, "rules.daily"), tr(lang, "rules.duplicate"))


def _trump_text(lang: str, rules: Rules) -> str:
    """N5: the trump sequence as suits, in the configured order."""
    order = trump_order(lang, rules.trumps)
    if rules.trumps == (None,):
        return tr(lang, "rules.trump.never")
    if len(rules.trumps) == 1:
        return tr(lang, "rules.trump.single", order=order)
    if rules.trumps_setting in TRUMP_PRESETS:
        name = trumps_label(lang, rules.trumps_setting)
        return tr(lang, "rules.trump.cycle", name=name, order=order)
    return tr(lang, "rules.trump.custom", order=order)


def _nines(lang: str, rules: Rules) -> list[Section]:
    teams = rules.teams is not None
    sections = [
        _section(lang, "cards", tr(lang, f"rules.cards.{rules.name}")),
        _section(lang, "deal", tr(lang, "rules.deal.nines")),
    ]
    if rules.has_spare:  # N4
        sections.append(_section(lang, "exchange", tr(lang, f"rules.exchange.{rules.exchange}")))
    sections += [
        _section(lang, "play", tr(lang, "rules.play.nines")),
        _section(lang, "trump", _trump_text(lang, rules)),
    ]
    quota = tr(lang, "count.tricks", count=rules.quota)
    score = "rules.score.team" if teams else "rules.score.player"
    instant = "rules.instant.on" if rules.instant_win else "rules.instant.off"
    sections.append(
        _section(
            lang,
            "score",
            tr(lang, score, start=rules.start, quota=quota),
            tr(lang, instant),
            # N12: what the sheet's columns are (issue 46: no column adds them up any more)
            tr(lang, "rules.total"),
        )
    )
    if teams:  # N10: one team alone can reach 0 in a hand
        sections.append(_section(lang, "end", tr(lang, "rules.end.team")))
    else:  # N8
        cap = tr(lang, "rules.cap", hands=tr(lang, "count.hands", count=MAX_HANDS))
        sections.append(
            _section(
                lang,
                "end",
                tr(lang, "rules.end.nines"),
                tr(lang, f"rules.ties.{rules.ties}"),
                cap,
            )
        )
    return [*sections, _time(lang), _daily(lang)]


def _nein_nine(lang: str, rules: Rules) -> list[Section]:
    end = tr(
        lang,
        "rules.end.nein-nine",
        rounds=tr(lang, "count.rounds", count=rules.rounds),
        plus=f"+{rules.limit}",
        minus=f"−{rules.limit}",
    )
    return [
        _section(lang, "cards", tr(lang, "rules.cards.nein-nine")),
        _section(lang, "deal", tr(lang, "rules.deal.nein-nine")),
        _section(lang, "play", tr(lang, "rules.play.nein-nine")),
        # G4-G6: the suit led stays what it was when led, whatever an 8 makes trump later.
        _section(lang, "trump", tr(lang, "rules.trump.nein-nine"), tr(lang, "rules.led.nein-nine")),
        _section(lang, "joker", tr(lang, "rules.joker")),  # G7: no suit, not a 9
        _section(lang, "score", tr(lang, "rules.score.nein-nine"), tr(lang, "rules.stones")),
        _section(lang, "end", end),
        _time(lang),
        _daily(lang),
    ]


#: Each game's rules told, by its type (a test checks every registered game has its text).
TEXTS: Final[dict[GameType, Callable[[str, Rules], list[Section]]]] = {
    NINES: _nines,
    NEIN_NINE: _nein_nine,
}

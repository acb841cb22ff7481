"""Rules as data: a frozen ``Rules`` value per game, built from one settings vocabulary.

Each game's rulesets live in its own module (``engine/games/``) and are found by name here.

The vocabulary is shared by the engine, the command line, ``/nines start`` options, server
settings and game records: a ruleset name plus settings.

>>> rules = Rules.from_settings("classic", {"trumps": "quebec", "instant_win": "on"})
>>> rules.settings()["trumps"], rules.trumps[:2], rules.instant_win
('quebec', (<Suit.HEARTS: 'H'>, <Suit.SPADES: 'S'>), True)
>>> Rules.from_settings("classic", {"trumps": "h,s,nt"}).settings()["trumps"]
'H,S,NT'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from .cards import Suit
from .errors import SettingError
from .games import GAMES, find_ruleset
from .gametype import GameName, GameType

if TYPE_CHECKING:
    from .variant import Variant

Trump = Suit | None  # None is a no-trump hand

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES

#: N5: the named trump sequences, one entry per deal, repeating.
TRUMP_PRESETS: Final[dict[str, tuple[Trump, ...]]] = {
    "classic": (H, D, C, S, None),
    "spades-first": (S, H, D, C, None),
    "hdsc": (H, D, S, C, None),
    "hcds": (H, C, D, S, None),
    "quebec": (H, S, D, C, None),
    "clubs-first": (C, D, H, S, None),
}

SettingValue = str | int


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What a ruleset fixes (its game, players, quota, teams) and which settings it takes;
    each game's module (``engine/games/``) registers its own."""

    name: str
    #: The game it plays, as its traits.
    kind: GameType
    players: int
    quota: int
    spare: bool
    teams: tuple[tuple[int, ...], ...] | None
    settings: tuple[str, ...]
    summary: str

    @property
    def game(self) -> GameName:
        """The name of the game it plays, as stored."""
        return self.kind.name


DEFAULTS: Final[dict[str, SettingValue]] = {
    "trumps": "classic",
    "exchange": "left",
    "ties": "play-on",
    "instant_win": "off",
    "start": 9,
    "rounds": 9,
    "limit": 9,
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides how one game plays. Build it with ``from_settings``."""

    ruleset: Ruleset
    trumps: tuple[Trump, ...] = TRUMP_PRESETS["classic"]
    trumps_setting: str = "classic"
    exchange: str = "left"
    ties: str = "play-on"
    instant_win: bool = False
    start: int = 9
    rounds: int = 9
    limit: int = 9
    _settings: tuple[tuple[str, SettingValue], ...] = field(default=(), compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def game(self) -> GameName:
        return self.ruleset.game

    @property
    def kind(self) -> GameType:
        """What the game is (its unit, who wins, its faces...): ask this, not the name."""
        return self.ruleset.kind

    @property
    def variant(self) -> Variant:
        """How the game plays where games differ (``variant``): its registered rules hooks."""
        return GAMES[self.ruleset.kind.name].variant

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def quota(self) -> int:
        return self.ruleset.quota

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        return self.ruleset.teams

    @property
    def has_spare(self) -> bool:
        return self.ruleset.spare

    @property
    def units(self) -> int:
        """How many scores the sheet keeps: one per team, or one per player."""
        return len(self.teams) if self.teams else self.players

    def unit_of(self, seat: int) -> int:
        """The score (team or player) a seat plays for."""
        return seat % 2 if self.teams else seat

    def seats_of(self, unit: int) -> tuple[int, ...]:
        return self.teams[unit] if self.teams else (unit,)

    def trump_of_hand(self, hand_index: int) -> Trump:
        """Nines: the trump of the hand with that 0-based index (N5)."""
        return self.trumps[hand_index % len(self.trumps)]

    def settings(self) -> dict[str, SettingValue]:
        """The settings this ruleset takes, in the shared vocabulary."""
        return dict(self._settings)

    def to_dict(self) -> dict[str, SettingValue]:
        return {"ruleset": self.name, **self.settings()}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        rest = {k: v for k, v in data.items() if k != "ruleset"}
        return cls.from_settings(str(data.get("ruleset", "classic")), rest)

    @classmethod
    def from_settings(
        cls, ruleset: str = "classic", settings: Mapping[str, object] | None = None
    ) -> Rules:
        """Rules for a ruleset with some settings changed; SettingError on a bad one.

        Settings that another ruleset takes but this one does not (an exchange order for a
        game without a spare, say) are ignored, so one set of server defaults fits every
        ruleset; a setting no ruleset knows is an error.
        """
        spec = find_ruleset(ruleset)
        given = {k.strip().lower().replace("-", "_"): v for k, v in (settings or {}).items()}
        unknown = sorted(set(given) - set(DEFAULTS))
        if unknown:
            raise SettingError(
                f"Unknown setting {unknown[0]!r}: the settings are {', '.join(DEFAULTS)}."
            )
        values = {key: _parse(key, given.get(key, DEFAULTS[key])) for key in spec.settings}
        kwargs: dict[str, object] = {}
        if "trumps" in values:
            text = str(values["trumps"])
            kwargs["trumps"] = _trump_sequence(text)
            kwargs["trumps_setting"] = text
        for key in ("exchange", "ties", "start", "rounds", "limit"):
            if key in values:
                kwargs[key] = values[key]
        if "instant_win" in values:
            kwargs["instant_win"] = values["instant_win"] == "on"
        return cls(
            ruleset=spec,
            _settings=tuple(values.items()),
            **kwargs,  # type: ignore[arg-type]
        )


def _parse(key: str, raw: object) -> SettingValue:
    text = str(raw).strip().lower() if not isinstance(raw, bool) else ("on" if raw else "off")
    if key == "trumps":
        return _canonical_trumps(text)
    choices = {
        "exchange": ("left", "dealer"),
        "ties": ("play-on", "joint"),
        "instant_win": ("on", "off"),
    }
    if key in choices:
        text = {"true": "on", "false": "off", "dealer-first": "dealer"}.get(text, text)
        if text not in choices[key]:
            raise SettingError(f"{key} must be one of {', '.join(choices[key])}, not {raw!r}.")
        return text
    bounds = {"start": (3, 21), "rounds": (1, 30), "limit": (1, 30)}[key]
    try:
        number = int(text)
    except ValueError:
        raise SettingError(f"{key} must be a whole number, not {raw!r}.") from None
    if not bounds[0] <= number <= bounds[1]:
        raise SettingError(f"{key} must be between {bounds[0]} and {bounds[1]}, not {number}.")
    return number


def _canonical_trumps(text: str) -> str:
    if text in TRUMP_PRESETS:
        return text
    entries = [e.strip().upper() for e in text.replace(" ", ",").split(",") if e.strip()]
    if not 1 <= len(entries) <= 10 or any(e not in ("H", "D", "C", "S", "NT") for e in entries):
        raise SettingError(
            "trumps must be a preset (" + ", ".join(TRUMP_PRESETS) + ") or a list of 1 to 10 "
            f"entries from H, D, C, S, NT such as H,S,D,C,NT, not {text!r}."
        )
    return ",".join(entries)


def _trump_sequence(text: str) -> tuple[Trump, ...]:
    if text in TRUMP_PRESETS:
        return TRUMP_PRESETS[text]
    return tuple(None if e == "NT" else Suit(e) for e in text.split(","))

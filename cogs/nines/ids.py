"""custom_ids of every component: namespaced, versioned, carrying ids only (never trust).

Each kind of click is a typed value, formatted into its custom_id and parsed back here alone:
the controller never reads a custom_id's text.

>>> PLAY.format(game=42, n=7, card="9H")
'nines:1:play:42:7:9H'
>>> PLAY.parse('nines:1:play:42:7:9H')
{'game': '42', 'n': '7', 'card': '9H'}
>>> PLAY.parse('nines:1:play:42:7:9X') is None
True
>>> parse('nines:1:xchg:42:7:swap')
ExchangeClick(game=42, n=7, chosen=True)
>>> PlayClick(game=42, n=7, card=Card.parse("JK")).custom_id
'nines:1:play:42:7:JK'
>>> parse('nines:1:play:42:7:9X') is None
True
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import ClassVar, Final, Literal, Self, cast, get_args

from engine import JOKER, Action, Card, Exchange, Play

PREFIX: Final = "nines:1:"
_GAME = r"(?P<game>[1-9][0-9]{0,17})"
_N = r"(?P<n>0|[1-9][0-9]{0,6})"

LobbyVerb = Literal[
    "join", "leave", "start", "cancel", "cpu-easy", "cpu-normal", "cpu-hard", "uncpu"
]
LOBBY_VERBS: Final[tuple[LobbyVerb, ...]] = get_args(LobbyVerb)
#: The lobby's "add a computer" verbs, weakest first.
ADD_COMPUTER: Final[tuple[LobbyVerb, ...]] = ("cpu-easy", "cpu-normal", "cpu-hard")


@dataclass(frozen=True, slots=True)
class IdTemplate:
    """One kind of custom_id: its regex (for discord.py's DynamicItem) and its format."""

    pattern: str
    text: str

    def format(self, **fields: object) -> str:
        return self.text.format(**fields)

    def parse(self, custom_id: str) -> dict[str, str] | None:
        match = re.fullmatch(self.pattern, custom_id)
        return match.groupdict() if match else None


LOBBY: Final = IdTemplate(
    rf"nines:1:lobby:{_GAME}:(?P<verb>{'|'.join(LOBBY_VERBS)})",
    "nines:1:lobby:{game}:{verb}",
)
HAND: Final = IdTemplate(rf"nines:1:hand:{_GAME}", "nines:1:hand:{game}")
PLAY: Final = IdTemplate(
    rf"nines:1:play:{_GAME}:{_N}:(?P<card>[2-9TJQKA][SHDC]|JK)", "nines:1:play:{game}:{n}:{card}"
)
EXCHANGE: Final = IdTemplate(
    rf"nines:1:xchg:{_GAME}:{_N}:(?P<choice>keep|swap)", "nines:1:xchg:{game}:{n}:{choice}"
)
JOKER_CALL: Final = IdTemplate(
    rf"nines:1:joker:{_GAME}:{_N}:(?P<choice>win|lose)", "nines:1:joker:{game}:{n}:{choice}"
)
BACK: Final = IdTemplate(rf"nines:1:back:{_GAME}", "nines:1:back:{game}")
REMATCH: Final = IdTemplate(rf"nines:1:rematch:{_GAME}", "nines:1:rematch:{game}")
FORGET: Final = IdTemplate(r"nines:1:forget:(?P<user>[1-9][0-9]{0,19})", "nines:1:forget:{user}")


# -- the typed clicks: each kind's custom_id from its fields, and back --------------------------
# ``from_fields`` takes what its TEMPLATE matched: the regex has already refused anything else.


@dataclass(frozen=True, slots=True)
class NumbersClick:
    """A click whose fields are numbers alone, named as its TEMPLATE's: its kind is its
    class (and its TEMPLATE)."""

    TEMPLATE: ClassVar[IdTemplate]

    @property
    def custom_id(self) -> str:
        return self.TEMPLATE.format(**asdict(self))

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> Self:
        return cls(**{name: int(text) for name, text in fields.items()})


@dataclass(frozen=True, slots=True)
class GameOnlyClick(NumbersClick):
    """A click that names its game alone."""

    game: int


@dataclass(frozen=True, slots=True)
class LobbyClick:
    """A lobby's button: join, leave, start, cancel, add a computer of a level, remove one."""

    TEMPLATE: ClassVar[IdTemplate] = LOBBY
    game: int
    verb: LobbyVerb

    @property
    def custom_id(self) -> str:
        return LOBBY.format(game=self.game, verb=self.verb)

    @property
    def level(self) -> str | None:
        """The difficulty of the computer to add ("cpu-hard": "hard"), else None."""
        return self.verb.removeprefix("cpu-") if self.verb in ADD_COMPUTER else None

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> LobbyClick:
        return cls(int(fields["game"]), cast(LobbyVerb, fields["verb"]))


@dataclass(frozen=True, slots=True)
class HandClick(GameOnlyClick):
    """My hand / Refresh: the clicker's private hand."""

    TEMPLATE: ClassVar[IdTemplate] = HAND


@dataclass(frozen=True, slots=True)
class PlayClick:
    """A card of the hand, at the game's move count ``n`` (a stale click is refused)."""

    TEMPLATE: ClassVar[IdTemplate] = PLAY
    game: int
    n: int
    card: Card

    @property
    def custom_id(self) -> str:
        return PLAY.format(game=self.game, n=self.n, card=str(self.card))

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> PlayClick:
        return cls(int(fields["game"]), int(fields["n"]), Card.parse(fields["card"]))


@dataclass(frozen=True, slots=True)
class ChoiceClick:
    """One of a move's two buttons at the game's move count ``n``: its TEMPLATE's ``choice``
    is one of WORDS, the first meaning ``chosen``."""

    TEMPLATE: ClassVar[IdTemplate]
    WORDS: ClassVar[tuple[str, str]]
    game: int
    n: int
    chosen: bool

    @property
    def custom_id(self) -> str:
        word = self.WORDS[0] if self.chosen else self.WORDS[1]
        return self.TEMPLATE.format(game=self.game, n=self.n, choice=word)

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> Self:
        return cls(int(fields["game"]), int(fields["n"]), fields["choice"] == cls.WORDS[0])


@dataclass(frozen=True, slots=True)
class ExchangeClick(ChoiceClick):
    """Swap (``chosen``) or Keep during the exchange."""

    TEMPLATE: ClassVar[IdTemplate] = EXCHANGE
    WORDS: ClassVar[tuple[str, str]] = ("swap", "keep")

    @property
    def action(self) -> Exchange:
        return Exchange(self.chosen)


@dataclass(frozen=True, slots=True)
class JokerClick(ChoiceClick):
    """Nein Nine: the Joker's call, Win (``chosen``) or Lose."""

    TEMPLATE: ClassVar[IdTemplate] = JOKER_CALL
    WORDS: ClassVar[tuple[str, str]] = ("win", "lose")

    @property
    def action(self) -> Play:
        return Play(JOKER, "win" if self.chosen else "lose")


@dataclass(frozen=True, slots=True)
class BackClick(GameOnlyClick):
    """I'm back: an away player takes their seat again."""

    TEMPLATE: ClassVar[IdTemplate] = BACK


@dataclass(frozen=True, slots=True)
class RematchClick(GameOnlyClick):
    """Rematch, under an ended game's result."""

    TEMPLATE: ClassVar[IdTemplate] = REMATCH


@dataclass(frozen=True, slots=True)
class ForgetClick(NumbersClick):
    """The confirmation of /nines forget, for that user alone."""

    TEMPLATE: ClassVar[IdTemplate] = FORGET
    user: int


Click = (
    LobbyClick
    | HandClick
    | PlayClick
    | ExchangeClick
    | JokerClick
    | BackClick
    | RematchClick
    | ForgetClick
)
#: The clicks that make a move, at the game's move count ``n``.
MoveClick = PlayClick | ExchangeClick | JokerClick
#: The clicks that name a game.
GameClick = LobbyClick | HandClick | MoveClick | BackClick | RematchClick

KINDS: Final[tuple[type[Click], ...]] = (
    LobbyClick,
    HandClick,
    PlayClick,
    ExchangeClick,
    JokerClick,
    BackClick,
    RematchClick,
    ForgetClick,
)
#: Every kind's template.
ALL: Final = tuple(kind.TEMPLATE for kind in KINDS)


def move_click(game: int, n: int, action: Action) -> MoveClick:
    """The button a fresh hand shows for ``action`` (what a person clicks to make it); a
    Joker played with its call is the call's button."""
    if isinstance(action, Exchange):
        return ExchangeClick(game, n, action.swap)
    assert isinstance(action, Play)
    if action.joker is not None:
        return JokerClick(game, n, action.joker == "win")
    return PlayClick(game, n, action.card)


def parse(custom_id: str) -> Click | None:
    """The click a custom_id stands for; None if it is none of ours (forged, or too old)."""
    for kind in KINDS:
        fields = kind.TEMPLATE.parse(custom_id)
        if fields is not None:
            return kind.from_fields(fields)
    return None


def is_ours(custom_id: str) -> bool:
    """Whether a custom_id is one this bot's components handle."""
    return parse(custom_id) is not None

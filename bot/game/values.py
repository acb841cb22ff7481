"""The values a game's session hands out: who sits in a seat, what one step of the game did,
and what it raises (a refusal to show the person who asked, or the game lost to another
process)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Event

from ..storage import player_key


@dataclass(slots=True)
class SeatInfo:
    """Who sits in a seat: a person (``user_id``) or a computer (``difficulty``)."""

    name: str
    user_id: int | None = None
    difficulty: str | None = None
    away: bool = False  # a person whose seat the computer plays after repeated time-outs
    timeouts: int = 0
    autoplay: bool = False  # the person's preference: their forced cards play themselves
    trumps_first: bool = False  # the person's preference: their hand shows trumps first
    text_cards: bool = False  # the person's preference: their hand's cards as text, no faces

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        return self.user_id is None or self.away

    @property
    def key(self) -> str:
        return player_key(self.user_id, self.difficulty)


@dataclass(slots=True)
class Change:
    """What one step of the game did, for the presenter to show."""

    events: list[Event] = field(default_factory=list)
    timed_out: list[int] = field(default_factory=list)  # seats the computer played for
    restored: bool = False
    ended: str | None = None  # "finished", or why the game was abandoned
    #: (user id, action count): the answer to this person's own click showed them the game
    #: after this many actions, so if their turn is due at that very count they know it and
    #: need no notification.
    answered: tuple[int, int] | None = None

    def extend(self, other: Change) -> None:
        self.events.extend(other.events)
        self.timed_out.extend(other.timed_out)
        self.ended = other.ended or self.ended
        self.answered = other.answered or self.answered


class SessionError(Exception):
    """A refusal to show the person who asked, privately: an i18n key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class GameLost(Exception):
    """The database refused the game's write: another process holds its shard now (a newer
    lease, storage's FencedOut) and runs the game. The session has closed itself; the click
    gets no answer from this process (the holder answers it), and nothing says the game ended.
    """

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is run by another process now")
        self.game_id = game_id

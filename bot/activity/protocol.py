"""The Activity's wire format: the table model as JSON (``table_json``), and the frames.

Field for field as the contract says (docs/activity-protocol.md and its schema, which
tests/test_activity_contract.py holds this to): the names are ``TableModel``'s; cards and
actions are their engine text (``str(card)``, ``str(action)``); a suit is its letter;
user ids are strings (JavaScript numbers cannot hold a snowflake). Words are the client's: the
server sends none but its error messages.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from engine import GAMES, Card, HandEnded, Rules, SheetRow, Trump

from ..table import DuplicateSheet, HandModel, SeatModel, TableModel, TrickModel, TurnModel

Json = dict[str, Any]

#: The refusals a client can be told, each with what the person reads
#: (docs/activity-protocol.md, "Error codes"; the schema's ``ErrorCode`` is this list). Only
#: ``retry`` (Discord or this server's budget did not answer; the frame's ``retry_after`` says
#: in how many seconds) and ``not-in-instance`` (the instance's users can lag a launch) are
#: worth the same hello again (and ``busy``, a cap of this server).
ERROR_CODES: Final = frozenset(
    {
        "auth",
        # Discord did not answer the hello's checks (a rate limit, a server error, a timeout):
        # the client tries again, no sooner than ``retry_after`` seconds if the frame says.
        "retry",
        # The server is at one of its caps (too many sockets in all, from one address, of one
        # person; frames too fast): the client tries again later (``retry_after``).
        "busy",
        "not-in-instance",
        "wrong-channel",
        "no-game",
        # A hello for today's daily (``Hello.daily``) that cannot sit at it from here now
        # (not offered, no server, played on another process): final for the daily; the page
        # goes back to the channel's table.
        "no-daily",
        "not-seated",
        "not-your-turn",
        "illegal",
        "stale",
        "bad-request",
    }
)


def _suit(trump: Trump) -> str | None:
    return None if trump is None else trump.value


def _cards(cards: tuple[Card, ...] | frozenset[Card] | None) -> list[str] | None:
    if cards is None:
        return None
    return [str(c) for c in cards]


def _seat(seat: SeatModel, avatars: Mapping[int, str]) -> Json:
    return {
        "seat": seat.seat,
        "name": seat.name,
        "code": seat.code,
        "user_id": None if seat.user_id is None else str(seat.user_id),
        "computer": seat.computer,
        "level": seat.level,
        "away": seat.away,
        "host": seat.host,
        "team": seat.team,
        "cards_left": seat.cards_left,
        "tricks_won": seat.tricks_won,
        "quota_left": seat.quota_left,
        "avatar": None if seat.user_id is None else avatars.get(seat.user_id),
    }


def _trick(trick: TrickModel) -> Json:
    return {
        "number": trick.number,
        "cards": [{"seat": p.seat, "card": str(p.card), "call": p.call} for p in trick.cards],
        "winner": trick.winner,
        "winning_card": None if trick.winning_card is None else str(trick.winning_card),
    }


def _turn(turn: TurnModel) -> Json:
    return {"seat": turn.seat, "kind": turn.kind, "deadline": turn.deadline}


def _hand(hand: HandModel) -> Json:
    return {
        "seat": hand.seat,
        "cards": _cards(hand.cards),
        "legal": [str(a) for a in hand.legal],
        # In hand order, so the client needs no card order of its own.
        "playable": [str(c) for c in hand.cards if c in hand.playable],
        "put_down": _cards(hand.put_down),
    }


def _row(row: SheetRow) -> Json:
    return {
        "number": row.number,
        "trump": _suit(row.trump),
        "dealer": row.dealer,
        "scores": list(row.scores),
        "total": row.total,
    }


def _duplicate(match: DuplicateSheet) -> Json:
    return {
        "game": match.game,
        "games": match.games,
        "rows": [
            {"number": r.number, "matchpoints": list(r.matchpoints), "tops": list(r.tops)}
            for r in match.rows
        ],
        "matchpoints": list(match.matchpoints),
        "tops": list(match.tops),
    }


def _result(result: HandEnded) -> Json:
    return {
        "number": result.number,
        "tricks_won": list(result.tricks_won),
        "scores": list(result.scores),
        "spare": _cards(result.spare),
        "instant_win": result.instant_win,
        "nines": list(result.nines),
        "points": list(result.points),
    }


#: The last games' ``kind`` and ``rules`` as JSON, by their ``Rules`` object (with it, so the
#: id is never another's): fixed for a game's life, and ``dataclasses.asdict`` cost a third
#: of ``table_json``, serialized at every change.
_FIXED: dict[int, tuple[Rules, Json, Json]] = {}
FIXED_KEPT: Final = 512


def _fixed(model: TableModel) -> tuple[Json, Json]:
    """``kind`` and ``rules`` as the contract writes them, each a new dict (the caller may
    change it; what is inside is not to be changed)."""
    rules = model.rules
    kept = _FIXED.get(id(rules))
    if kept is None or kept[0] is not rules or rules.kind is not model.kind:
        kind = dataclasses.asdict(model.kind)
        written = {
            **rules.to_dict(),
            "players": rules.players,
            "quota": rules.quota,
            "teams": None if rules.teams is None else [list(t) for t in rules.teams],
        }
        if rules.kind is not model.kind:  # (not a game's model: nothing to keep)
            return kind, written
        if len(_FIXED) >= FIXED_KEPT:
            _FIXED.clear()
        kept = _FIXED[id(rules)] = (rules, kind, written)
    return dict(kept[1]), dict(kept[2])


def viewer_json(model: TableModel) -> Json:
    """What of ``table_json`` is the reader's own: the seat it is for and that seat's hand.
    The rest is the same for every reader of the game at one moment."""
    return {"viewer": model.viewer, "hand": None if model.hand is None else _hand(model.hand)}


def table_json(
    model: TableModel, avatars: Mapping[int, str] | None = None, *, four_colour: bool = False
) -> Json:
    """The table model as the client reads it. ``avatars``: the avatar URLs the server knows
    (of people who opened the Activity), by user id; others get null. ``four_colour``: the
    server's four-colour deck setting, which the chat's faces follow too (issue 46)."""
    kind, rules = _fixed(model)
    return {
        "game_id": model.game_id,
        "kind": kind,
        "rules": rules,
        "status": model.status,
        # The letters the game's cards carry for every reader (K/Q/J or R/D/V), whatever the
        # reader's language.
        "notation": model.notation,
        "four_colour": four_colour,
        "seats": [_seat(s, avatars or {}) for s in model.seats],
        "hand_number": model.hand_number,
        "phase": model.phase,
        "dealer": model.dealer,
        "trump": _suit(model.trump),
        "spits": _cards(model.spits),
        "exchange_order": list(model.exchange_order),
        "exchange": [[seat, swapped] for seat, swapped in model.exchange],
        "turn": None if model.turn is None else _turn(model.turn),
        "trick": None if model.trick is None else _trick(model.trick),
        "tricks": [_trick(t) for t in model.tricks],
        # The hand that just ended, trick by trick, until this hand's first trick is taken:
        # its last cards came with the next deal, and stand on the table through these.
        "last_tricks": [_trick(t) for t in model.last_tricks],
        "scores": list(model.scores),
        "start_scores": list(model.start_scores),
        "sheet": [_row(r) for r in model.sheet],
        "duplicate": None if model.duplicate is None else _duplicate(model.duplicate),
        "last_result": None if model.last_result is None else _result(model.last_result),
        "tiebreak": None if model.tiebreak is None else list(model.tiebreak),
        "winners": None if model.winners is None else list(model.winners),
        "ranking": (
            None
            if model.ranking is None
            else [
                {
                    "unit": r.unit,
                    "seats": list(r.seats),
                    "place": r.place,
                    "score": r.score,
                    "winner": r.winner,
                }
                for r in model.ranking
            ]
        ),
        **viewer_json(model),
        # The game's count of moves stored (the index the next one takes): which of two tables
        # is newer, whatever their frames' seq (a relayed socket's seq starts again).
        "n": model.n,
    }


# -- frames ------------------------------------------------------------------------------------


class BadFrame(ValueError):
    """A client frame that is not the protocol's; the message says what is wrong."""


@dataclasses.dataclass(frozen=True, slots=True)
class Hello:
    access_token: str
    instance_id: str
    channel_id: int
    guild_id: int | None
    last_seq: int | None
    locale: str
    #: Today's daily deal of this game instead of the channel's table (issue 47); None: the
    #: channel's table.
    daily: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Act:
    key: str
    action: str
    #: The game's move count on the table the action was made on (TABLE's ``n``).
    n: int


@dataclasses.dataclass(frozen=True, slots=True)
class Ping:
    pass


#: What a web table may do in its game's lobby (``lobby`` frames): sit down, get up, add or
#: remove a computer, start (the last three the host's, as in chat); and, waiting in a
#: channel with no game, open a lobby there (``open``).
LOBBY_WHATS: Final = frozenset({"join", "leave", "cpu", "uncpu", "start", "open"})


@dataclasses.dataclass(frozen=True, slots=True)
class LobbyAct:
    """``{"op": "lobby", "key": ..., "what": ...}``: a lobby move; answered ``ack`` or
    ``error`` under its key, the table that follows showing the seats."""

    key: str
    what: str


Frame = Hello | Act | Ping | LobbyAct

#: Longest idempotency key and action text accepted (a UUID is 36 characters).
KEY_LONGEST: Final = 100
ACTION_LONGEST: Final = 16
#: Largest move count accepted (a game has a few hundred moves; bounded as the database's
#: INTEGER is).
MOVES_MOST: Final = 2**31 - 1


def _text(data: Mapping[str, Any], name: str, longest: int) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not 1 <= len(value) <= longest:
        raise BadFrame(f"{name} must be a string of 1 to {longest} characters")
    return value


def _snowflake(value: Any, name: str) -> int:
    if not isinstance(value, str) or not value.isdigit() or len(value) > 20:
        raise BadFrame(f"{name} must be an id (digits, as a string)")
    return int(value)


def parse_frame(data: Any) -> Frame:
    """A client frame from its decoded JSON; BadFrame for anything else."""
    if not isinstance(data, dict):
        raise BadFrame("a frame is a JSON object")
    op = data.get("op")
    if op == "ping":
        return Ping()
    if op == "act":
        n = data.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MOVES_MOST:
            raise BadFrame(f"n must be a whole number from 0 to {MOVES_MOST}")
        return Act(_text(data, "key", KEY_LONGEST), _text(data, "action", ACTION_LONGEST), n)
    if op == "lobby":
        what = data.get("what")
        if what not in LOBBY_WHATS:
            raise BadFrame(f"what must be one of {', '.join(sorted(LOBBY_WHATS))}")
        return LobbyAct(_text(data, "key", KEY_LONGEST), str(what))
    if op == "hello":
        last_seq = data.get("last_seq")
        if last_seq is not None and (not isinstance(last_seq, int) or isinstance(last_seq, bool)):
            raise BadFrame("last_seq must be a whole number or null")
        guild = data.get("guild_id")
        locale = data.get("locale")
        daily = data.get("daily")
        if daily is not None and daily not in GAMES:
            raise BadFrame(f"daily must be null or one of {', '.join(sorted(GAMES))}")
        return Hello(
            access_token=_text(data, "access_token", 200),
            instance_id=_text(data, "instance_id", 200),
            channel_id=_snowflake(data.get("channel_id"), "channel_id"),
            guild_id=None if guild is None else _snowflake(guild, "guild_id"),
            last_seq=last_seq,
            locale=locale if isinstance(locale, str) else "en-US",
            daily=daily,
        )
    raise BadFrame(f"unknown op {op!r}")


def error_frame(
    key: str | None, code: str, message: str, *, retry_after: float | None = None
) -> Json:
    """A refusal; ``retry_after`` (seconds) the soonest a ``retry`` or ``busy`` is worth
    trying again."""
    assert code in ERROR_CODES, code
    frame: Json = {"op": "error", "key": key, "code": code, "message": message}
    if retry_after is not None:
        frame["retry_after"] = retry_after
    return frame


def waiting_frame(message: str, *, daily_offered: bool) -> Json:
    """The socket of a channel with no game, kept open: it gets ``ready`` when a game opens
    there (bot/activity/waiting.py). ``daily_offered``: the page may offer today's daily."""
    return {"op": "waiting", "code": "no-game", "message": message, "daily_offered": daily_offered}

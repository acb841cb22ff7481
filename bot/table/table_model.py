"""The table model: what one seat (or a watcher) may see of a game at one moment.

Plain frozen values, computed once from the engine's views and the session, in no language and
for no medium: the chat presenter renders them as embeds and buttons, the web table (the
Activity) as SVG cards. Nothing that renders a game reads a ``GameSession`` or a ``Game``.

What may be seen follows the engine's views (R1, N4, N13, G11): a seat's model holds its own
hand and legal actions; a watcher's (``viewer is None``) holds no hand at all.

``build`` (below the types) is the one way to make one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, Protocol

from bot.table.sheet_codes import short_codes
from bot.words import distinct
from engine import (
    Action,
    Card,
    DealerChosen,
    Game,
    HandEnded,
    Play,
    PublicView,
    Rules,
    SeatView,
    SheetRow,
    TrickWon,
    Trump,
    public_view,
    seat_view,
    sort_hand,
)
from engine.duplicate import Rotations, board_points
from engine.gametype import GameType

if TYPE_CHECKING:
    from bot.game.session import SeatInfo

Status = Literal["lobby", "playing", "finished", "abandoned"]
Phase = Literal["exchange", "play", "over"]


@dataclass(frozen=True, slots=True)
class SeatModel:
    """One seat as everybody may see it."""

    seat: int
    #: The name to show, already told apart from every other seat's (``Alex``, ``Alex (2)``)
    #: and cleaned of what no client should draw (``bot/words/names.py``); not escaped for any
    #: medium: each renderer escapes for its own (markdown, a code block, HTML).
    name: str
    #: The score sheet's short code for this seat (``Ale``), unique in the game.
    code: str
    user_id: int | None  # None for a computer
    computer: bool
    level: str | None  # a computer's difficulty
    away: bool  # a person whose seat the computer plays after repeated time-outs
    host: bool
    team: int  # the unit (team, or the seat itself) whose score this seat plays for
    cards_left: int
    tricks_won: int  # this hand's tricks, the seat's own
    #: Nines: tricks the seat's unit still needs to reach its quota this hand (0 once met);
    #: None where the game has no quota.
    quota_left: int | None


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: Card
    #: Nein Nine: a Joker's call, "win" or "lose" (G7); None otherwise.
    call: str | None = None


@dataclass(frozen=True, slots=True)
class TrickModel:
    """A trick's cards in play order, each beside its player."""

    number: int  # 1-based within the hand
    cards: tuple[PlayedCard, ...]
    winner: int | None = None  # None while in play
    winning_card: Card | None = None


@dataclass(frozen=True, slots=True)
class TurnModel:
    """Whose decision is awaited, and until when."""

    seat: int
    kind: Literal["exchange", "play", "joker-call"]
    deadline: float | None  # Unix time the turn timer runs out; None: no timer (a computer)


@dataclass(frozen=True, slots=True)
class HandModel:
    """The viewer's own hand: never in a watcher's model, never another seat's."""

    seat: int
    cards: tuple[Card, ...]  # in display order (suit order, the person's sorting preference)
    legal: tuple[Action, ...]  # empty when it is not this seat's decision
    playable: frozenset[Card]  # the cards of ``legal``'s plays, for raising or enabling
    put_down: tuple[Card, ...] | None  # the hand this seat put down in an exchange (N4)
    text_cards: bool = False  # the person prefers text cards to faces (issue 46)


@dataclass(frozen=True, slots=True)
class RankRow:
    """One line of the final ranking: a unit (player or team), its place and score."""

    unit: int
    seats: tuple[int, ...]
    place: int  # tied scores share a place
    score: int
    winner: bool


@dataclass(frozen=True, slots=True)
class DuplicateRow:
    """One hand of a duplicate match's game on its sheet: per unit (player or team), the
    matchpoints its player earned on these cards in this seat against those who held them in
    the match's games so far, out of ``tops`` (how many others: 0 while nobody else has)."""

    number: int
    matchpoints: tuple[float, ...]
    tops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DuplicateSheet:
    """The running duplicate result a duplicate match's sheet shows beside the raw scores
    (``engine.duplicate.Rotations``): this game's hands, and per unit its player's (a team's,
    partners alike) matchpoints and tops over the match so far."""

    game: int  # this game's number in the match, from 1
    games: int
    rows: tuple[DuplicateRow, ...]
    matchpoints: tuple[float, ...]
    tops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableModel:
    game_id: int
    kind: GameType
    rules: Rules
    status: Status
    viewer: int | None  # the seat this model is for; None for a watcher
    seats: tuple[SeatModel, ...]
    hand_number: int
    phase: Phase
    dealer: int
    trump: Trump
    spits: tuple[Card, Card] | None  # Nein Nine once trump is set: the big and little Spit
    exchange_order: tuple[int, ...]
    exchange: tuple[tuple[int, bool], ...]  # (seat, swapped) decided so far
    turn: TurnModel | None
    trick: TrickModel | None  # in play, at least one card on it
    #: Completed tricks of this hand that may still be shown, in order. Nines: all of them
    #: (the chat table lists those completed since its previous edit, a presenter's count,
    #: and the last; a hand shows the last). Nein Nine (G11 amended): only the last, and only
    #: until the next trick's first card, as people at a real table see it gathered; none of
    #: an earlier trick. The same for a seat's model, whose table is the public one: only the
    #: chat's private hand leaves it out. Once the game is over, the last round's every trick.
    tricks: tuple[TrickModel, ...]
    scores: tuple[int, ...]  # per unit
    start_scores: tuple[int, ...]
    sheet: tuple[SheetRow, ...]
    last_result: HandEnded | None  # the previous hand's (or, once over, the last hand's) result
    #: Why this hand is played at all: the units tied when the game would have ended (N8, G9).
    tiebreak: tuple[int, ...] | None
    winners: tuple[int, ...] | None  # seats; None while the game goes on
    ranking: tuple[RankRow, ...] | None  # once the game is over
    hand: HandModel | None  # the viewer's own; None for a watcher
    #: How many actions the game has accepted: the version its buttons carry, so a click on
    #: a hand shown before a later move is told it is stale.
    n: int
    #: The language whose letters the game's cards carry (K/Q/J or R/D/V): the game's public
    #: language, for every reader, so nobody reads D♥ on the table and Q♥ in their hand. A
    #: numbered sheet code (a name with nothing readable) is in it too.
    notation: str
    first_dealer: int
    #: The draw for first dealer (N2, G2): rounds of (seat, card), ties drawing again.
    draw: tuple[tuple[tuple[int, Card], ...], ...]
    #: The completed tricks of the hand ``last_result`` reports, every one, while this hand
    #: has none completed yet: a hand's last cards (the one completing its next-to-last trick,
    #: the last trick, which plays itself) are followed by the next deal in the same step, so
    #: without these no table would ever hold them (PRODUCT 6). Empty otherwise, and once the
    #: game is over (``tricks`` holds the last hand's then).
    last_tricks: tuple[TrickModel, ...] = ()
    #: A duplicate match's game (bot/game/duplicate_match.py): its running duplicate result.
    duplicate: DuplicateSheet | None = None

    def unit_seats(self, unit: int) -> tuple[SeatModel, ...]:
        """The seats that play for ``unit`` (a player, or a team's two)."""
        return tuple(self.seats[s] for s in self.rules.seats_of(unit))


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A seat taken in a lobby, before any card is dealt."""

    seat: int
    name: str  # told apart and cleaned, as ``SeatModel.name``
    user_id: int | None  # None for a computer
    computer: bool
    level: str | None
    host: bool


@dataclass(frozen=True, slots=True)
class LobbyModel:
    """A game not started yet (or the lobby it had): who sits where, until when it waits."""

    game_id: int
    kind: GameType
    rules: Rules
    status: Status
    players: int  # seats to fill
    seats: tuple[LobbySeat, ...]  # the seats taken, in order
    #: The thread the game is played in, when it is not the lobby's channel.
    thread: int | None
    #: Still taking players: neither started nor cancelled (a closing time to show).
    waiting: bool
    closes: float  # Unix time an unstarted lobby closes by itself

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.players


# -- building ------------------------------------------------------------------------------------


class TableSource(Protocol):
    """What ``build`` reads of a game's session: its public attributes only."""

    @property
    def id(self) -> int: ...
    @property
    def seats(self) -> Sequence[SeatInfo]: ...
    @property
    def game(self) -> Game | None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def language(self) -> str: ...
    @property
    def host_id(self) -> int | None: ...
    @property
    def status(self) -> str: ...
    @property
    def deadline(self) -> float | None: ...


class LobbySource(TableSource, Protocol):
    """What ``build_lobby`` reads besides: the lobby's own attributes."""

    @property
    def players(self) -> int: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def lobby_channel_id(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    @property
    def lobby_deadline(self) -> float: ...


#: The session's status (storage's ``GameStatus``) as the model says it.
STATUSES: dict[str, Status] = {
    "lobby": "lobby",
    "live": "playing",
    "finished": "finished",
    "abandoned": "abandoned",
}
PHASES: dict[str, Phase] = {"exchange": "exchange", "play": "play", "over": "over"}


def match_of(source: TableSource) -> Rotations | None:
    """The duplicate match ``source``'s game is played in (``GameSession.duplicate``); None
    for any other game, and for a source that keeps no match (a bench's or a test's)."""
    match = getattr(source, "duplicate", None)
    return match if isinstance(match, Rotations) else None


def names_of(seats: Sequence[SeatInfo]) -> list[str]:
    """The names to show for these seats: cleaned and told apart (``bot/words/names.py``)."""
    return distinct([s.name for s in seats], [s.is_computer for s in seats])


@functools.lru_cache(maxsize=4096)
def trick_of(trick: TrickWon, players: int) -> TrickModel:
    """A completed trick from the game's record: each card beside its player, in play order.

    Cached: every model of a hand holds its completed tricks, each made again at every card
    (a third of the public model's building); a trick and its model never change."""
    cards = tuple(
        PlayedCard((trick.leader + k) % players, c, trick.joker if c.suit is None else None)
        for k, c in enumerate(trick.cards)
    )
    return TrickModel(trick.number, cards, trick.winner, trick.winning_card)


def tiebreak_of(table: PublicView) -> tuple[int, ...] | None:
    """The units tied for the win when the game would have ended (N8, G9), or None: an
    ordinary hand. Partnership has no such hand (N10: one team alone reaches 0)."""
    rules = table.rules
    kind = rules.kind
    if table.over or not table.sheet or rules.teams:
        return None
    scores = table.scores
    if not rules.variant.end_reached(rules, table.sheet[-1].number, scores):
        return None
    best = max(scores) if kind.higher_wins else min(scores)
    return tuple(u for u in range(rules.units) if scores[u] == best)


def _ranking(kind: GameType, rules: Rules, table: PublicView) -> tuple[RankRow, ...] | None:
    """Units from first to last: the winners first, then by score (the better first); tied
    scores share a place."""
    if table.winners is None:
        return None
    better = 1 if kind.higher_wins else -1
    won = {rules.unit_of(s) for s in table.winners}

    def key(unit: int) -> tuple[bool, int]:
        return (unit not in won, -better * table.scores[unit])

    order = sorted(range(rules.units), key=key)
    return tuple(
        RankRow(
            unit=unit,
            seats=rules.seats_of(unit),
            place=1 + sum(1 for other in order if key(other) < key(unit)),
            score=table.scores[unit],
            winner=unit in won,
        )
        for unit in order
    )


def _hand(view: SeatView, trumps_first: bool, text_cards: bool = False) -> HandModel:
    """The seat's cards in display order: suit order, or the trump suit first for a person
    who sorts so (``SeatInfo.trumps_first``; none yet in a Nein Nine round before its first
    8, nor in a no-trump hand)."""
    plays = frozenset(a.card for a in view.legal if isinstance(a, Play))
    first = view.table.trump if trumps_first else None
    return HandModel(
        seat=view.seat,
        cards=tuple(sort_hand(view.hand, first)),
        legal=view.legal,
        playable=plays,
        put_down=tuple(sort_hand(view.put_down[-1], first)) if view.put_down else None,
        text_cards=text_cards,
    )


def build(
    source: TableSource, viewer: int | None, *, shown_tricks: int | None = None
) -> TableModel:
    """What ``viewer`` (a seat; None: a watcher, the public table) may see of the game now.

    ``shown_tricks``: how many of this hand's completed tricks the medium drawing this model
    showed the last time it drew the game (None: not known, as after a restart). It matters
    in Nein Nine only, where a completed trick stands until the next trick's first card: one
    completed and followed by that card in the same step (computers play on at once) was
    never drawn, so it is drawn this once, beside that card, and never after (G11 amended;
    R1: everyone saw it played).

    From the engine's views only: ``public_view`` for the table everyone sees, and for a seat
    ``seat_view`` besides (its hand and legal actions, ``with_hand``), so the model can hold
    no more than the engine lets that reader know. A seat's model is the public one and its
    hand: the same table, whoever reads it (R1). ``bot/table/table_models.py`` builds each once per
    change and shares it."""
    public = build_public(source, shown_tricks=shown_tricks)
    return public if viewer is None else with_hand(public, source, viewer)


def tricks_shown_matter(game: Game) -> bool:
    """Whether ``shown_tricks`` changes what ``build`` makes of the game now: in Nein Nine
    only, in a hand in play, while a trick is on the table (its completed tricks are then
    shown once, since the medium's last drawing)."""
    return game.rules.kind.hidden_tricks and not game.over and bool(game.trick)


def build_public(source: TableSource, *, shown_tricks: int | None = None) -> TableModel:
    """The watchers' model (``build(source, None)``): the public table, no hand."""
    game = source.game
    if game is None:
        raise ValueError(f"Game {source.id} has no cards dealt yet: its model is build_lobby's.")
    rules = game.rules
    kind = rules.kind
    table = public_view(game)
    names = names_of(source.seats)
    # A computer's code is made from its name like a person's (issue 46: ``N1`` read as a
    # code of another kind beside people's names).
    codes = short_codes(source.language, names)
    won = [sum(table.tricks_won[s] for s in rules.seats_of(u)) for u in range(rules.units)]
    seats = tuple(
        SeatModel(
            seat=s,
            name=names[s],
            code=codes[s],
            user_id=info.user_id,
            computer=info.is_computer,
            level=info.difficulty,
            away=info.away,
            host=info.user_id is not None and info.user_id == source.host_id,
            team=rules.unit_of(s),
            cards_left=table.hand_sizes[s],
            tricks_won=table.tricks_won[s],
            quota_left=max(0, rules.quota - won[rules.unit_of(s)]) if kind.has_quota else None,
        )
        for s, info in enumerate(source.seats)
    )
    turn = None
    if table.turn is not None:
        timed = not source.seats[table.turn].played_by_computer
        turn = TurnModel(
            seat=table.turn,
            kind="exchange" if table.phase == "exchange" else "play",
            deadline=source.deadline if timed else None,
        )
    trick = None
    if table.trick:
        trick = TrickModel(
            number=len(game.tricks) + 1,
            cards=tuple(
                PlayedCard(s, c, table.joker_call if c.suit is None else None)
                for s, c in table.trick
            ),
        )
    # The hand's completed tricks: the game's record (a seat's view holds them all, R1), not
    # the public view, which in Nein Nine hides taken tricks (G11) while the last one still
    # stands on the table. In Nein Nine, what G11 (amended) lets stand: the last completed
    # trick, until the next trick's first card; every medium reads this, so none shows more.
    completed: Sequence[TrickWon] = game.tricks
    if kind.hidden_tricks and not game.over:
        if not table.trick:
            completed = completed[-1:]
        elif shown_tricks is not None:
            completed = completed[shown_tricks:]  # completed since the last drawing: once
        else:
            completed = ()
    last_tricks: tuple[TrickModel, ...] = ()
    if not game.tricks and not game.over:
        last_tricks = tuple(trick_of(t, rules.players) for t in table.last_hand_tricks)
    chosen = game.opening[0]
    draw = chosen.rounds if isinstance(chosen, DealerChosen) else ()
    match = match_of(source)
    return TableModel(
        game_id=source.id,
        kind=kind,
        rules=rules,
        status=STATUSES[source.status],
        viewer=None,
        seats=seats,
        hand_number=table.hand_number,
        phase=PHASES[table.phase],
        dealer=table.dealer,
        trump=table.trump,
        spits=rules.variant.spits(table.trump),
        exchange_order=table.exchange_order,
        exchange=table.exchange,
        turn=turn,
        trick=trick,
        tricks=tuple(trick_of(t, rules.players) for t in completed),
        scores=table.scores,
        start_scores=table.start_scores,
        sheet=table.sheet,
        last_result=table.last_hand,
        tiebreak=tiebreak_of(table),
        winners=table.winners,
        ranking=_ranking(kind, rules, table),
        hand=None,
        n=len(game.log),
        notation=source.language,
        first_dealer=table.first_dealer,
        draw=draw,
        last_tricks=last_tricks,
        duplicate=None if match is None else duplicate_sheet(game, match),
    )


def duplicate_sheet(game: Game, match: Rotations) -> DuplicateSheet:
    """The running duplicate result of ``game``, the current game of ``match``: by unit, its
    first seat's (partners hold the same boards with the same points)."""
    rules = game.rules
    standing = match.standing(tuple(board_points(game, s) for s in range(rules.players)))
    firsts = [rules.seats_of(u)[0] for u in range(rules.units)]
    rows = tuple(
        DuplicateRow(
            number=board.hand,
            matchpoints=tuple(standing.boards[s][i].matchpoints for s in firsts),
            tops=tuple(standing.boards[s][i].top for s in firsts),
        )
        for i, board in enumerate(standing.boards[0])
    )
    return DuplicateSheet(
        game=match.rotation + 1,
        games=match.games,
        rows=rows,
        matchpoints=tuple(standing.totals[s][0] for s in firsts),
        tops=tuple(standing.totals[s][1] for s in firsts),
    )


def with_hand(public: TableModel, source: TableSource, seat: int) -> TableModel:
    """A seat's model: ``public`` (the watchers' model of the game as it is now) with the
    seat's own hand and legal actions, from the engine's ``seat_view``."""
    game = source.game
    if game is None:
        raise ValueError(f"Game {source.id} has no cards dealt yet: its model is build_lobby's.")
    view = seat_view(game, seat)
    hand = _hand(view, source.seats[seat].trumps_first, source.seats[seat].text_cards)
    # ``dataclasses.replace`` made through ``__init__``, a third of this (the web table
    # builds one a seat a change): the same fields set directly.
    model = object.__new__(TableModel)
    for name in _MODEL_FIELDS:
        _set(model, name, getattr(public, name))
    _set(model, "viewer", seat)
    _set(model, "hand", hand)
    return model


#: ``TableModel``'s fields, for ``with_hand``'s copy; ``_set`` writes a frozen one's.
_MODEL_FIELDS: Final = tuple(f.name for f in dataclasses.fields(TableModel))
_set: Final = object.__setattr__


def build_lobby(source: LobbySource) -> LobbyModel:
    """The lobby as everybody sees it: the seats taken so far, the host, until when."""
    rules = source.rules
    names = names_of(source.seats)
    return LobbyModel(
        game_id=source.id,
        kind=rules.kind,
        rules=rules,
        status=STATUSES[source.status],
        players=source.players,
        seats=tuple(
            LobbySeat(
                seat=s,
                name=names[s],
                user_id=info.user_id,
                computer=info.is_computer,
                level=info.difficulty,
                host=info.user_id is not None and info.user_id == source.host_id,
            )
            for s, info in enumerate(source.seats)
        ),
        thread=source.channel_id if source.channel_id != source.lobby_channel_id else None,
        waiting=source.status == "lobby" and not source.closed,
        closes=source.lobby_deadline,
    )

"""A stand-in for ``bot.table_model.build`` until the ``model`` helper's builder is merged.

The Activity reads a game only through ``table_for(session, viewer)``; at merge, its body
becomes ``return build(session, viewer)`` and this module's helpers go. It shows no more than
the engine's views allow (R1, N4, G11): a seat's own hand and legal actions, a watcher's none,
and in Nein Nine no completed trick during play (the real builder applies G11 amended: the
last trick until the next one's first card).
"""

from __future__ import annotations

from dataclasses import replace

from engine import JOKER, Card, Play, public_view, seat_view
from engine import spits as spits_of
from engine.gametype import game_type

from ..session import GameSession
from ..table_model import (
    HandModel,
    PlayedCard,
    RankRow,
    SeatModel,
    Status,
    TableModel,
    TrickModel,
    TurnModel,
)


def _status(session: GameSession) -> Status:
    if session.status == "lobby":
        return "lobby"
    if session.status == "live":
        return "playing"
    return "finished" if session.status == "finished" else "abandoned"


def _codes(names: list[str]) -> list[str]:
    """Three letters of each name, numbered where two would be alike."""
    codes: list[str] = []
    for name in names:
        base = (name.strip() or "?")[:3]
        code, k = base, 2
        while code in codes:
            code, k = f"{base[:2]}{k}", k + 1
        codes.append(code)
    return codes


def table_for(session: GameSession, viewer: int | None) -> TableModel:
    """What ``viewer`` (a seat, or None for a watcher) may see of the game now."""
    rules = session.rules
    kind = game_type(rules.game)
    names = session.names()
    codes = _codes(names)
    game = session.game
    view = public_view(game) if game is not None else None
    seats = []
    for i, info in enumerate(session.seats):
        unit = rules.unit_of(i)
        won = view.tricks_won[i] if view is not None else 0
        quota_left = None
        if kind.has_quota:
            unit_won = sum(view.tricks_won[s] for s in rules.seats_of(unit)) if view else 0
            quota_left = max(0, rules.quota - unit_won)
        seats.append(
            SeatModel(
                seat=i,
                name=info.name,
                code=codes[i],
                user_id=info.user_id,
                computer=info.is_computer,
                level=info.difficulty,
                away=info.away,
                host=info.user_id is not None and info.user_id == session.host_id,
                team=unit,
                cards_left=view.hand_sizes[i] if view is not None else 0,
                tricks_won=won,
                quota_left=quota_left,
            )
        )
    # Before the deal (a lobby) the table is its seats alone; a game fills in the rest.
    empty = TableModel(
        game_id=session.id,
        kind=kind,
        rules=rules,
        status=_status(session),
        viewer=viewer,
        seats=tuple(seats),
        hand_number=0,
        phase="exchange",
        dealer=0,
        trump=None,
        spits=None,
        exchange_order=(),
        exchange=(),
        turn=None,
        trick=None,
        tricks=(),
        scores=(),
        start_scores=(),
        sheet=(),
        last_result=None,
        tiebreak=None,
        winners=None,
        ranking=None,
        hand=None,
    )
    if game is None or view is None:
        return empty
    phase = view.phase if view.phase in ("exchange", "play", "over") else "play"
    turn = None
    if view.turn is not None and not view.over:
        # The Joker's call is made with the card (``JK:win``): no turn of its own here.
        turn = TurnModel(
            seat=view.turn,
            kind="exchange" if view.phase == "exchange" else "play",
            deadline=session.deadline if session.person_due() == view.turn else None,
        )
    trick = None
    if view.trick:
        trick = TrickModel(
            number=sum(view.tricks_won) + 1,
            cards=tuple(
                PlayedCard(seat, card, view.joker_call if card is JOKER else None)
                for seat, card in view.trick
            ),
        )
    tricks: tuple[TrickModel, ...] = ()
    if view.last_trick is not None:
        last = view.last_trick
        tricks = (
            TrickModel(
                number=last.number,
                cards=tuple(
                    PlayedCard((last.leader + k) % rules.players, card)
                    for k, card in enumerate(last.cards)
                ),
                winner=last.winner,
                winning_card=last.cards[(last.winner - last.leader) % rules.players],
            ),
        )
    spits: tuple[Card, Card] | None = None
    if kind.trump_from_play and view.trump is not None:
        spits = spits_of(view.trump)
    hand = None
    if viewer is not None and 0 <= viewer < rules.players:
        mine = seat_view(game, viewer)
        put_down = mine.put_down[-1] if mine.put_down else None
        hand = HandModel(
            seat=viewer,
            cards=mine.hand,
            legal=mine.legal,
            playable=frozenset(a.card for a in mine.legal if isinstance(a, Play)),
            put_down=put_down,
        )
    ranking = None
    if view.winners is not None:
        better = 1 if kind.higher_wins else -1
        rows = []
        for unit in range(rules.units):
            score = view.scores[unit]
            place = 1 + sum(1 for s in view.scores if better * s > better * score)
            unit_seats = rules.seats_of(unit)
            rows.append(
                RankRow(
                    unit=unit,
                    seats=unit_seats,
                    place=place,
                    score=score,
                    winner=any(s in view.winners for s in unit_seats),
                )
            )
        ranking = tuple(sorted(rows, key=lambda r: (r.place, r.unit)))
    return replace(
        empty,
        hand_number=view.hand_number,
        phase=phase,  # type: ignore[arg-type]
        dealer=view.dealer,
        trump=view.trump,
        spits=spits,
        exchange_order=view.exchange_order,
        exchange=view.exchange,
        turn=turn,
        trick=trick,
        tricks=tricks,
        scores=view.scores,
        start_scores=view.start_scores,
        sheet=view.sheet,
        last_result=view.last_hand,
        winners=view.winners,
        ranking=ranking,
        hand=hand,
    )


__all__ = ["table_for"]

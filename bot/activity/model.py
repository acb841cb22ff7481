"""What the Activity shows of a game: the table model (``bot.table_model.build``), and before
any card is dealt, the lobby's seats in the same shape, so the web table has one model to draw.
"""

from __future__ import annotations

from ..session import GameSession
from ..table_model import SeatModel, TableModel, build, build_lobby


def table_for(
    session: GameSession, viewer: int | None, *, shown_tricks: int | None = None
) -> TableModel:
    """What ``viewer`` (a seat, or None for a watcher) may see of the game now;
    ``shown_tricks`` as ``build`` takes it (what this table showed of the hand last time)."""
    if session.game is not None:
        return build(session, viewer, shown_tricks=shown_tricks)
    lobby = build_lobby(session)
    return TableModel(
        game_id=lobby.game_id,
        kind=lobby.kind,
        rules=lobby.rules,
        status=lobby.status,
        viewer=viewer,
        seats=tuple(
            SeatModel(
                seat=s.seat,
                name=s.name,
                code=s.name[:3],
                user_id=s.user_id,
                computer=s.computer,
                level=s.level,
                away=False,
                host=s.host,
                team=lobby.rules.unit_of(s.seat),
                cards_left=0,
                tricks_won=0,
                quota_left=None,
            )
            for s in lobby.seats
        ),
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
        n=0,
        notation=session.language,
        first_dealer=0,
        draw=(),
    )


__all__ = ["table_for"]

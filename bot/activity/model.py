"""What the Activity shows of a game: the table model (``bot.table.table_model.build``, each built
once per change and shared with the chat: ``bot.table.table_models``), and before any card is dealt,
the lobby's seats in the same shape, so the web table has one model to draw; and that model as the
text a socket is sent (``table_texts``), serialized once for all its readers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import orjson

from ..game import GameSession
from ..table import SeatModel, TableModel, build_lobby, table
from .protocol import table_json, viewer_json


def table_for(
    session: GameSession, viewer: int | None, *, shown_tricks: int | None = None
) -> TableModel:
    """What ``viewer`` (a seat, or None for a watcher) may see of the game now;
    ``shown_tricks`` as ``build`` takes it (what this table showed of the hand last time)."""
    if session.game is not None:
        return table(session, viewer, shown_tricks=shown_tricks)
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


def table_texts(
    session: GameSession,
    viewers: Iterable[int | None],
    avatars: Mapping[int, str],
    *,
    shown_tricks: int | None = None,
    four_colour: bool = False,
) -> dict[int | None, str]:
    """The table as each of ``viewers`` (seats, None for the watchers) may see it now, as JSON
    text (``table_json``'s). What every reader shares (all but ``viewer_json``: the seat and
    its hand, R1) is serialized once, and each viewer's own part spliced into it."""
    public = table_for(session, None, shown_tricks=shown_tricks)
    shared = table_json(public, avatars, four_colour=four_colour)
    for own in ("viewer", "hand"):
        del shared[own]
    text = orjson.dumps(shared)[:-1]  # without its closing brace: the reader's part follows
    texts: dict[int | None, str] = {}
    for viewer in viewers:
        if viewer not in texts:
            model = table_for(session, viewer, shown_tricks=shown_tricks)
            texts[viewer] = (text + b"," + orjson.dumps(viewer_json(model))[1:]).decode()
    return texts


__all__ = ["table_for", "table_texts"]

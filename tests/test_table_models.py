"""The shared table models (bot/table/table_models.py): each built once per change and viewer, and
never served stale.

Seeded games of every ruleset are played through one session whose game moves on in place, as a
live one does; after every action each viewer's model is read through the store, twice, and
compared with a model built afresh: the second read is the first's very object (built once),
and both equal what ``build`` makes now (never stale). Then every other thing a model reads is
changed on the session (an away flag, the deadline, the status, the host, the language, a
seat's name or hand order, a restored or undone game) and each must be seen at the next read.
The web table's texts (``table_texts``) are the table JSON of each viewer's model.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from bot.activity.model import table_for, table_texts
from bot.activity.protocol import table_json
from bot.game.session import SeatInfo
from bot.table import TableModels, build
from engine import RULESETS, Game, Play

from .test_table_model import positions, session_for

VIEWERS: tuple[int | None, ...] = (None, 0, 1, 2, 3)


def viewers_of(game: Game) -> tuple[int | None, ...]:
    return VIEWERS[: game.rules.players + 1]


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_read_is_the_game_as_it_is_and_built_once(ruleset: str) -> None:
    store = TableModels(kept=1000)
    session: Any = None
    for game in positions(ruleset):
        if session is None or session.game is not game:
            session = session_for(game)
        for shown in (None, 0, 1, len(game.tricks)):
            for viewer in viewers_of(game):
                first = store.table(session, viewer, shown_tricks=shown)
                again = store.table(session, viewer, shown_tricks=shown)
                assert again is first
                assert first == build(session, viewer, shown_tricks=shown)
    assert store.reused > store.built


def changes() -> list[tuple[str, Any]]:
    """Every way a session changes besides its game's moves, each a function of the session."""

    def away(s: Any) -> None:
        s.seats[0].away = not s.seats[0].away

    def deadline(s: Any) -> None:
        s.deadline = (s.deadline or 0) + 30

    def finished(s: Any) -> None:
        s.status = "finished"

    def host(s: Any) -> None:
        s.host_id = s.seats[1].user_id

    def language(s: Any) -> None:
        s.language = "fr"

    def renamed(s: Any) -> None:
        s.seats[1].name = "Someone Else"

    def trumps_first(s: Any) -> None:
        s.seats[0].trumps_first = not s.seats[0].trumps_first

    def reseated(s: Any) -> None:
        s.seats = [SeatInfo("Robot", difficulty="hard"), *s.seats[1:]]

    def restored(s: Any) -> None:  # a restart's replay: another Game, the same moves
        s.game = Game.replay(s.game.rules, s.game.seed, s.game.log)

    return [
        ("away", away),
        ("deadline", deadline),
        ("finished", finished),
        ("host", host),
        ("language", language),
        ("renamed", renamed),
        ("trumps_first", trumps_first),
        ("reseated", reseated),
        ("restored", restored),
    ]


@pytest.mark.parametrize(("what", "change"), changes(), ids=[c[0] for c in changes()])
def test_a_change_of_the_session_is_never_served_stale(what: str, change: Any) -> None:
    game = next(g for g in positions("classic") if len(g.log) == 9)
    session = session_for(game)
    store = TableModels()
    before = {v: store.table(session, v) for v in viewers_of(game)}
    change(session)
    for viewer in viewers_of(game):
        now = store.table(session, viewer)
        assert now is not before[viewer], what
        assert now == build(session, viewer), what


def test_an_undone_move_then_another_at_the_same_count_is_not_served_stale() -> None:
    """A move not stored is undone (``GameSession._store``: the game replayed without it): a
    different move then brings the game back to the same number of actions."""
    game = next(g for g in positions("classic") if len(g.log) == 9 and g.turn is not None)
    seat = game.turn
    assert seat is not None
    plays = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
    assert len(plays) > 1
    session = session_for(game)
    store = TableModels()
    game.apply(seat, plays[0])
    made = {v: store.table(session, v) for v in viewers_of(game)}
    undone = Game.replay(game.rules, game.seed, game.log[:-1])
    undone.apply(seat, plays[1])
    session.game = undone
    for viewer in viewers_of(undone):
        now = store.table(session, viewer)
        assert now == build(session, viewer)
        assert now != made[viewer]
        assert now.n == made[viewer].n


def test_only_the_latest_reads_are_kept() -> None:
    store = TableModels(kept=4)
    for game_id, game in zip(range(10), positions("classic"), strict=False):
        session = session_for(game)
        session.id = game_id
        store.table(session, 0)
        assert len(store) <= 4


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_web_tables_texts_are_each_viewers_table(ruleset: str) -> None:
    avatars = {10**17: "https://cdn.example/a.png"}
    rng = random.Random(ruleset)
    for game in positions(ruleset):
        if rng.random() > 0.1:
            continue
        session = session_for(game)
        shown = rng.choice([None, 0, len(game.tricks)])
        texts = table_texts(session, viewers_of(game), avatars, shown_tricks=shown)
        assert set(texts) == set(viewers_of(game))
        for viewer, text in texts.items():
            model = table_for(session, viewer, shown_tricks=shown)
            assert json.loads(text) == table_json(model, avatars)


async def test_a_quiet_store_empties_itself_and_a_later_read_builds_the_same() -> None:
    """Models nobody read for ``quiet`` seconds are let go (a game at rest costs nothing here);
    a read after that builds the model again, equal to the one let go."""
    game = next(g for g in positions("classic") if len(g.log) == 9)
    session = session_for(game)
    store = TableModels(quiet=0.0)
    before = store.table(session, 0)
    assert len(store) == 2  # the seat's model and the watchers' it was made from
    # The check for quiet is a loop timer due at once (quiet 0): a few turns of the loop.
    while len(store):  # noqa: ASYNC110 (the store's own timer: no event to wait on)
        await asyncio.sleep(0)
    again = store.table(session, 0)
    assert again is not before
    assert again == before == build(session, 0)

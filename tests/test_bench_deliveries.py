"""The Activity's load run counts each card's way to every other socket of its game
(``bench/socket_clients.Deliveries``, what ``bench/load.py --clients sockets`` prints): the
bookkeeping on made-up clock readings, nothing timed."""

from __future__ import annotations

import pytest

from bench.socket_clients import Deliveries

GAME = 7


def opened(seq: int = 0) -> Deliveries:
    """Three sockets with the game's table at ``seq`` (their hellos': no delivery)."""
    deliveries = Deliveries()
    for seat in range(3):
        deliveries.table(GAME, seat, seq, 0.0)
    return deliveries


def test_a_card_reaches_the_two_other_sockets_not_its_player() -> None:
    d = opened()
    assert d.waits == []  # the hellos' tables deliver nothing
    d.card(GAME, 0, seq=0, at=1.0)
    d.table(GAME, 0, 1, 1.004)  # the player's own table: not a delivery
    d.table(GAME, 1, 1, 1.010)
    d.table(GAME, 2, 1, 1.030)
    assert d.waits == pytest.approx([0.010, 0.030])
    assert d.sent[GAME] == []  # every socket has it: forgotten


def test_the_next_card_before_the_third_socket_had_the_last() -> None:
    # Machine speed: seat 1 plays at once on the table that showed seat 0's card, before
    # seat 2 read it; seat 2's first table after both shows both cards.
    d = opened()
    d.card(GAME, 0, seq=0, at=1.0)
    d.table(GAME, 1, 1, 1.010)
    d.card(GAME, 1, seq=1, at=1.011)
    d.table(GAME, 0, 2, 1.020)
    d.table(GAME, 2, 2, 1.050)
    assert sorted(d.waits) == pytest.approx([0.009, 0.010, 0.039, 0.050])


def test_a_later_table_does_not_deliver_the_card_again() -> None:
    d = opened()
    d.card(GAME, 0, seq=0, at=1.0)
    d.table(GAME, 1, 1, 1.01)
    d.table(GAME, 1, 2, 1.50)  # a timer's table, say: seat 1 had the card already
    assert d.waits == pytest.approx([0.01])
    assert len(d.sent[GAME]) == 1  # seat 2 has not had it yet
    d.table(GAME, 2, 2, 1.60)
    assert d.waits == pytest.approx([0.01, 0.60])


def test_games_are_counted_apart() -> None:
    d = opened()
    d.table(8, 0, 5, 0.0)
    d.card(GAME, 0, seq=0, at=1.0)
    d.table(8, 0, 6, 1.2)  # another game's table delivers nothing of this game's
    assert d.waits == []

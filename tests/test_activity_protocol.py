"""bot/activity: the table model's JSON field for field as docs/activity-protocol.md says, what
a watcher and a seat get, the client frames accepted and refused, and the Activity's settings."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.activity.limits import TEXT_LONGEST, TooMuch, Unreadable, decode
from bot.activity.model import table_for
from bot.activity.protocol import (
    Act,
    BadFrame,
    Hello,
    LobbyAct,
    Ping,
    parse_frame,
    table_json,
)
from bot.base import Settings, SettingsError
from bot.game.session import GameSession, SeatInfo
from bot.storage.values import GameRow
from engine import Game, Rules, sort_hand
from testbed.contract import schema

from .test_settings import TOKEN

#: The contract's field names: its one source's (docs/activity-protocol.schema.json).
_DEFS = schema()["definitions"]
TABLE, KIND, SEAT, HAND, SHEET_ROW, RESULT, TRICK = (
    set(_DEFS[name]["properties"])
    for name in ("Table", "GameKind", "Seat", "Hand", "SheetRow", "HandResult", "Trick")
)

ALICE, BOB = 10**17 + 1, 10**17 + 2


def session(ruleset: str, moves: int) -> GameSession:
    """A live game of ``ruleset`` (Alice, Bob, computers) after ``moves`` random legal moves."""
    rules = Rules.from_settings(ruleset)
    row = GameRow(
        id=42, guild_id=1, channel_id=2, thread_id=None, kind=rules.game,  # type: ignore[arg-type]
        rules=rules.to_dict(), seed=5, status="live", host_id=ALICE, language="en",
        lobby_message_id=None, table_message_id=None, turn_deadline=None, created_at=0.0,
        updated_at=0.0, ended_at=None, end_reason=None, hands_played=None, rated=True,
    )  # fmt: skip
    seats = [SeatInfo("Alice", ALICE), SeatInfo("Bob", BOB)]
    seats += [SeatInfo(f"🤖 Bot {i}", None, "normal") for i in range(rules.players - 2)]
    game = Game(rules, 5)
    rng = random.Random(3)
    for _ in range(moves):
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    deps: Any = None  # reading a session touches none of its dependencies
    return GameSession(row, seats, deps, players=rules.players, game=game)


@pytest.mark.parametrize(("ruleset", "moves"), [("classic", 9), ("nein-nine", 10)])
def test_every_field_of_the_contract_and_no_other(ruleset: str, moves: int) -> None:
    live = session(ruleset, moves)
    table = table_json(table_for(live, 0), {ALICE: "https://cdn.example/a.png"})
    json.dumps(table)  # all of it is JSON
    assert set(table) == TABLE
    assert table["notation"] == "en" and table["n"] == moves
    assert set(table["kind"]) == KIND and table["kind"]["name"] == live.rules.game
    assert {"ruleset", "players", "quota", "teams"} <= set(table["rules"])
    assert all(set(seat) == SEAT for seat in table["seats"])
    assert table["seats"][0]["user_id"] == str(ALICE)  # ids as strings: JS numbers lose them
    assert table["seats"][0]["avatar"] == "https://cdn.example/a.png"
    assert table["seats"][2]["user_id"] is None and table["seats"][2]["computer"] is True
    assert set(table["hand"]) == HAND and table["hand"]["seat"] == 0
    held = live.view(0).hand
    assert table["hand"]["cards"] == [str(c) for c in sort_hand(held)]  # in display order
    assert set(table["hand"]["playable"]) <= set(table["hand"]["cards"])
    assert all(set(row) == SHEET_ROW for row in table["sheet"])
    if table["trick"] is not None:
        assert set(table["trick"]) == TRICK
        assert all(set(p) == {"seat", "card", "call"} for p in table["trick"]["cards"])
    assert table["trump"] in (None, "H", "D", "C", "S")
    assert table["turn"] is None or set(table["turn"]) == {"seat", "kind", "deadline"}


def test_a_finished_hand_has_its_result_and_the_sheet_its_row() -> None:
    live = session("classic", 60)  # past the first hand of classic Nines
    table = table_json(table_for(live, 1))
    assert table["hand_number"] >= 2
    assert set(table["last_result"]) == RESULT and len(table["sheet"]) >= 1
    assert all(set(t) == TRICK for t in table["tricks"])
    assert all(set(t) == TRICK for t in table["last_tricks"])


def test_a_watcher_gets_no_hand_and_a_seat_only_its_own() -> None:
    live = session("classic", 3)
    watcher = table_json(table_for(live, None))
    assert watcher["hand"] is None and watcher["viewer"] is None
    bob = table_json(table_for(live, 1))
    assert bob["hand"]["seat"] == 1
    alice_cards = {str(c) for c in live.view(0).hand}
    assert not alice_cards & set(bob["hand"]["cards"])
    assert not alice_cards & set(json.dumps(watcher).split('"'))


def test_client_frames() -> None:
    hello = parse_frame(
        {
            "op": "hello",
            "access_token": "t",
            "instance_id": "i-1-gc-2-3",
            "channel_id": "3",
            "guild_id": None,
            "last_seq": 4,
            "locale": "fr",
        }
    )
    assert hello == Hello("t", "i-1-gc-2-3", 3, None, 4, "fr")
    assert parse_frame({"op": "act", "key": "k", "action": "9H", "n": 7}) == Act("k", "9H", 7)
    assert parse_frame({"op": "ping"}) == Ping()
    for bad in (
        [],
        {"op": "dance"},
        {"op": "act", "key": "", "action": "9H", "n": 0},
        {"op": "act", "key": "k" * 101, "action": "9H", "n": 0},
        {"op": "act", "key": "k", "n": 0},
        # The move count of the table the action was made on: always sent, a whole number.
        {"op": "act", "key": "k", "action": "9H"},
        {"op": "act", "key": "k", "action": "9H", "n": None},
        {"op": "act", "key": "k", "action": "9H", "n": "3"},
        {"op": "act", "key": "k", "action": "9H", "n": True},
        {"op": "act", "key": "k", "action": "9H", "n": -1},
        {"op": "act", "key": "k", "action": "9H", "n": 1.5},
        {"op": "hello", "access_token": "t", "instance_id": "i", "channel_id": 3},
        {
            "op": "hello",
            "access_token": "t",
            "instance_id": "i",
            "channel_id": "3",
            "last_seq": "1",
        },
    ):
        with pytest.raises(BadFrame):
            parse_frame(bad)


def test_the_activity_is_off_unless_its_port_and_secret_are_set() -> None:
    off = Settings.from_mapping({"DISCORD_TOKEN": TOKEN})
    assert off.activity_port is None and not off.activity_on
    on = Settings.from_mapping(
        {
            "DISCORD_TOKEN": TOKEN,
            "ACTIVITY_PORT": "8081",
            "DISCORD_CLIENT_SECRET": "s3cret",
            "DISCORD_CLIENT_ID": "123",
        }
    )
    assert on.activity_on and (on.activity_port, on.client_id) == (8081, 123)
    assert "s3cret" not in repr(on)
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_SECRET"):
        Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "8081"})
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_ID"):
        Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "DISCORD_CLIENT_ID": "me"})
    with pytest.raises(SettingsError, match="ACTIVITY_PORT"):
        Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "http"})


def test_the_activitys_bounds_are_settings_with_defaults() -> None:
    default = Settings.from_mapping({"DISCORD_TOKEN": TOKEN})
    assert default.activity_host == "0.0.0.0"
    assert (
        default.activity_sockets,
        default.activity_sockets_per_address,
        default.activity_sockets_per_person,
    ) == (2000, 200, 8)
    chosen = Settings.from_mapping(
        {
            "DISCORD_TOKEN": TOKEN,
            "ACTIVITY_HOST": "127.0.0.1",
            "ACTIVITY_SOCKETS": "0",
            "ACTIVITY_SOCKETS_PER_ADDRESS": "50",
            "ACTIVITY_SOCKETS_PER_PERSON": "3",
        }
    )
    assert chosen.activity_host == "127.0.0.1"
    assert (
        chosen.activity_sockets,
        chosen.activity_sockets_per_address,
        chosen.activity_sockets_per_person,
    ) == (0, 50, 3)
    for name, value in (
        ("ACTIVITY_SOCKETS", "lots"),
        ("ACTIVITY_SOCKETS_PER_PERSON", "-1"),
        ("ACTIVITY_HOST", "http://example.org/"),
    ):
        with pytest.raises(SettingsError, match=name):
            Settings.from_mapping({"DISCORD_TOKEN": TOKEN, name: value})


def test_client_json_is_read_within_its_size_and_depth() -> None:
    assert decode('{"op": "ping", "x": [[1], {"a": "[[[[[[[[[[[[["}]}') == {
        "op": "ping",
        "x": [[1], {"a": "[" * 13}],
    }
    assert decode(b'{"code": "abc"}') == {"code": "abc"}
    for bad, why in (
        ("[" * 2000, "nested"),
        ("[" * 9 + "]" * 9, "nested"),
        ("x" * (TEXT_LONGEST + 1), "longer"),
    ):
        with pytest.raises(TooMuch, match=why):
            decode(bad)
    for bad, why in (("{not json", "not JSON"), (b"\xff\xfe", "UTF-8")):
        with pytest.raises(Unreadable, match=why):
            decode(bad)


def test_a_lobby_frame_names_one_of_the_lobby_moves() -> None:
    """Issue 46, item 15: ``{"op": "lobby", "key", "what"}``; any other ``what`` is refused."""
    for what in ("join", "leave", "cpu", "uncpu", "start", "open"):
        assert parse_frame({"op": "lobby", "key": "k", "what": what}) == LobbyAct("k", what)
    for bad in (
        {"op": "lobby", "key": "k", "what": "cancel"},
        {"op": "lobby", "key": "k"},
        {"op": "lobby", "what": "join"},
        {"op": "lobby", "key": "", "what": "join"},
    ):
        with pytest.raises(BadFrame):
            parse_frame(bad)

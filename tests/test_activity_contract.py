"""The web contract written once (docs/activity-protocol.md): the bot's serializer, the schema
(docs/activity-protocol.schema.json) and the page's TypeScript types (web/src/protocol.ts,
generated from the schema) agree, and the page's shared words are the bot's catalogues'.

Every table of whole played games (each seat's and a watcher's, after every move) and every
other frame the bot builds is valid under the schema; the frames the bot parses are the
schema's client frames, no more and no fewer; the error codes are one list; and what
``web/generate.mjs`` writes from the schema and the catalogues (the TypeScript types, the
document's reference, the page's shared words) is what is committed."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.activity.model import table_for
from bot.activity.protocol import (
    ERROR_CODES,
    Act,
    BadFrame,
    Hello,
    error_frame,
    parse_frame,
    table_json,
    waiting_frame,
)
from bot.game import points_of
from bot.game.session import GameSession, SeatInfo
from bot.storage.values import GameRow
from bot.words import catalogue
from engine import Game
from engine.duplicate import Rotations
from testbed.contract import check, check_client_frame, check_server_frame, problem, schema

from .test_activity_protocol import ALICE, BOB, session

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
DEFS = schema()["definitions"]


def play_through(live: GameSession, seed: int) -> list[dict[str, Any]]:
    """Every table of ``live`` played to its end by random legal moves: each seat's and a
    watcher's, before the first move and after each, as the bot sends them."""
    game = live.game
    assert game is not None
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(live.rules.players), None]
    avatars = {ALICE: "https://cdn.discordapp.com/avatars/1/a.png"}
    tables = [table_json(table_for(live, v), avatars) for v in viewers]
    while not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        tables += [table_json(table_for(live, v), avatars) for v in viewers]
    return tables


# The whole-game tests check thousands of tables against the schema: CPU-bound, run first.
@pytest.mark.parametrize(
    "ruleset",
    [
        pytest.param("classic", marks=pytest.mark.slow(10)),
        pytest.param("partnership", marks=pytest.mark.slow(20)),
        pytest.param("nein-nine", marks=pytest.mark.slow(4)),
    ],
)
def test_every_table_of_a_whole_game_is_the_contracts(ruleset: str) -> None:
    live = session(ruleset, 0)
    tables = play_through(live, seed=11)
    assert tables[-1]["n"] > 50 and tables[-1]["phase"] == "over"
    for table in tables:
        # As the page gets it: inside ready and table frames, through JSON.
        frame = json.loads(json.dumps({"op": "table", "seq": 3, "table": table}))
        check_server_frame(frame)  # its table is checked as a Table
        # The table as built, where JSON changed it (a tuple, a key not a string); where it
        # did not, the frame's check was this very check, and a table's costs milliseconds.
        if frame["table"] != table:
            check(table, "Table")
    ready = {"op": "ready", "seq": 0, "you": {"user_id": str(BOB), "name": "Bob", "seat": 1},
             "lang": "fr", "table": tables[-2], "daily": None, "daily_offered": False}  # fmt: skip
    check_server_frame(ready)
    # Each optional thing was seen both ways: a table is no proof of a field it never had.
    for field in ("trick", "turn", "last_result", "hand", "ranking", "winners"):
        seen = {table[field] is None for table in tables}
        assert seen == {True, False}, field


@pytest.mark.parametrize(
    "ruleset",
    [
        pytest.param("classic", marks=pytest.mark.slow(10)),
        pytest.param("partnership", marks=pytest.mark.slow(10)),
        pytest.param("nein-nine", marks=pytest.mark.slow(4)),
    ],
)
def test_a_duplicate_matchs_tables_are_the_contracts(ruleset: str) -> None:
    """The second game of a duplicate match (issue 47): its running result in every table."""
    live = session(ruleset, 0)
    first = Game(live.rules, live.seed)
    rng = random.Random(4)
    while not first.over:
        seat = first.turn
        assert seat is not None
        first.apply(seat, rng.choice(first.legal_actions(seat)))
    live.duplicate = Rotations(live.rules.players, (points_of(first),))
    tables = play_through(live, seed=12)
    for table in tables:
        check(table, "Table")
    last = tables[-1]["duplicate"]
    assert last["game"] == 2 and len(last["matchpoints"]) == live.rules.units
    assert [r["number"] for r in last["rows"]] == [r["number"] for r in tables[-1]["sheet"]]


def test_a_lobbys_table_is_the_contracts() -> None:
    row = GameRow(
        id=43, guild_id=1, channel_id=2, thread_id=None, kind="nines", rules={"ruleset": "classic"},
        seed=5, status="lobby", host_id=ALICE, language="fr", lobby_message_id=None,
        table_message_id=None, turn_deadline=None, created_at=0.0, updated_at=0.0,
        ended_at=None, end_reason=None, hands_played=None, rated=True,
    )  # fmt: skip
    deps: Any = None  # reading a session touches none of its dependencies
    lobby = GameSession(row, [SeatInfo("Alice", ALICE), SeatInfo("🤖 Bot", None, "hard")], deps,
                        players=3)  # fmt: skip
    table = table_json(table_for(lobby, 0))
    assert table["status"] == "lobby" and table["hand"] is None
    check(table, "Table")


def test_the_table_fields_are_the_schemas_and_the_models() -> None:
    """Each field table_json writes is in the schema, and every one the schema requires is
    written (additionalProperties false, everything required): the schema holds no field the
    bot never sends, as the browser tests' old serializer did."""
    live = session("nein-nine", 10)
    table = table_json(table_for(live, 0))
    for name, value in (("Table", table), ("Seat", table["seats"][0]), ("Hand", table["hand"]),
                        ("GameKind", table["kind"])):  # fmt: skip
        assert set(value) == set(DEFS[name]["required"]) == set(DEFS[name]["properties"]), name
    # The table model's fields the wire leaves out, said here so that a new one is decided.
    from bot.table import TableModel

    model = {f.name for f in dataclasses.fields(TableModel)}
    assert model - set(table) == {"first_dealer", "draw"}
    # And the one the wire adds: the server's four-colour deck setting, not the game's.
    assert set(table) - model == {"four_colour"}


def test_the_error_codes_are_one_list() -> None:
    assert set(DEFS["ErrorCode"]["enum"]) == ERROR_CODES
    for code in sorted(ERROR_CODES):
        check_server_frame(error_frame(None, code, "words"))
        check_server_frame(error_frame("k", code, "words", retry_after=2.5))
    check_server_frame(waiting_frame("No game here yet.", daily_offered=True))
    check_server_frame({"op": "ack", "key": "k"})
    check_server_frame({"op": "pong"})


def test_a_daily_result_is_the_contracts() -> None:
    """Issue 47: the result a person's web table is sent, the first to finish and against a
    field; the decisions only they played are left out, as the chat's result leaves them."""
    from bot.activity.daily import result_frame
    from bot.game import DailyResult, FieldChoice
    from engine.duplicate import BoardScore

    alone = DailyResult("2026-12-03", "nines", (BoardScore(1, 2, 0.0, 0),))
    frame = result_frame(alone)
    check_server_frame(frame)
    assert frame["share"] is None and frame["field"] == 0 and frame["choices"] == []
    field = DailyResult(
        "2026-12-03",
        "nein-nine",
        (BoardScore(1, -3, 1.5, 2), BoardScore(2, 4, 2.0, 2)),
        (FieldChoice(1, 0, "JK:win", "9H", 2, 3), FieldChoice(2, 4, "keep", "keep", 1, 1)),
    )
    frame = json.loads(json.dumps(result_frame(field)))
    check_server_frame(frame)
    assert frame["share"] == 0.875 and frame["field"] == 2
    assert frame["hands"][0] == {"number": 1, "points": -3, "share": 0.75}
    assert frame["choices"] == [
        {"hand": 1, "decision": 1, "mine": "JK:win", "common": "9H", "chose": 2, "field": 3}
    ]


def test_the_pages_shared_words_are_the_catalogues() -> None:
    """Every catalogue entry the page shares is read from web/src/catalogue.ts (generated from
    bot/locales/, checked current below), none copied by hand into i18n.ts."""
    shared = (WEB / "src" / "catalogue.ts").read_text()
    words = (WEB / "src" / "i18n.ts").read_text()
    keys = re.findall(r'^    "([\w.-]+)": ', shared, re.MULTILINE)
    assert len(keys) == 2 * 37 and len(set(keys)) == 37  # both languages, the same 37
    for language in ("en", "fr"):
        for key in set(keys):
            said = json.dumps(catalogue(language)[key], ensure_ascii=False)
            said = said.replace("\u00a0", "\\u00a0").replace("\u202f", "\\u202f")
            assert f'"{key}": {said},' in shared, (language, key)
            # Read, not copied: no string in i18n.ts is its text.
            assert json.dumps(catalogue(language)[key], ensure_ascii=False) not in words, key
    # Each is read in both languages, by its key (``c[...]`` English, ``f[...]`` French).
    for key in set(keys) - {f"rank.{r}" for r in range(11, 15)}:
        assert f'c["{key}"]' in words and f'f["{key}"]' in words, key


def test_the_client_frames_are_what_the_bot_parses() -> None:
    """The schema's client frames have the parsed frames' fields, and the bot and the schema
    accept and refuse the same frames."""
    # Every field but ``daily`` (optional: a page before issue 47 sends none) is required.
    hello = {f.name for f in dataclasses.fields(Hello)}
    assert set(DEFS["Hello"]["required"]) - {"op"} == hello - {"daily"}
    assert set(DEFS["Hello"]["properties"]) - {"op"} == hello
    assert set(DEFS["Act"]["required"]) - {"op"} == {f.name for f in dataclasses.fields(Act)}
    good = [
        {"op": "hello", "access_token": "t", "instance_id": "i-1", "channel_id": "3",
         "guild_id": None, "last_seq": None, "locale": "fr"},
        {"op": "hello", "access_token": "t", "instance_id": "i-1", "channel_id": "3",
         "guild_id": "12345678901234567", "last_seq": 40, "locale": "en-US"},
        {"op": "hello", "access_token": "t", "instance_id": "i-1", "channel_id": "3",
         "guild_id": "12", "last_seq": None, "locale": "fr", "daily": "nein-nine"},
        {"op": "hello", "access_token": "t", "instance_id": "i-1", "channel_id": "3",
         "guild_id": "12", "last_seq": None, "locale": "fr", "daily": None},
        {"op": "act", "key": "0f8fad5b-d9cb-469f-a165-70867728950e", "action": "JK:lose", "n": 0},
        {"op": "act", "key": "k", "action": "swap", "n": 2**31 - 1},
        {"op": "ping"},
    ]  # fmt: skip
    for frame in good:
        check_client_frame(frame)
        parse_frame(frame)
    bad = [
        [],
        {"op": "dance"},
        {"op": "act", "key": "", "action": "9H", "n": 0},
        {"op": "act", "key": "k" * 101, "action": "9H", "n": 0},
        {"op": "act", "key": "k", "n": 0},
        {"op": "act", "key": "k", "action": "9H"},
        {"op": "act", "key": "k", "action": "9H", "n": None},
        {"op": "act", "key": "k", "action": "9H", "n": "3"},
        {"op": "act", "key": "k", "action": "9H", "n": -1},
        {"op": "act", "key": "k", "action": "9H", "n": 1.5},
        {"op": "act", "key": "k", "action": "9H", "n": 2**31},
        {"op": "act", "key": "k", "action": "x" * 17, "n": 0},
        {"op": "hello", "access_token": "t", "instance_id": "i", "channel_id": 3,
         "guild_id": None, "last_seq": None, "locale": "en"},
        {"op": "hello", "access_token": "t", "instance_id": "i", "channel_id": "3",
         "guild_id": None, "last_seq": "1", "locale": "en"},
        {"op": "hello", "access_token": "", "instance_id": "i", "channel_id": "3",
         "guild_id": None, "last_seq": None, "locale": "en"},
        {"op": "hello", "access_token": "t", "instance_id": "i", "channel_id": "3",
         "guild_id": None, "last_seq": None, "locale": "en", "daily": "poker"},
        {"op": "hello", "access_token": "t", "instance_id": "i", "channel_id": "3",
         "guild_id": None, "last_seq": None, "locale": "en", "daily": 1},
    ]  # fmt: skip
    for frame in bad:
        assert problem(frame, "ClientFrame") is not None, frame
        with pytest.raises(BadFrame):
            parse_frame(frame)


def test_the_schema_refuses_what_the_bot_never_sends() -> None:
    """The check can fail: a field the bot does not send, one missing, a wrong type."""
    table = table_json(table_for(session("classic", 5), 0))
    assert problem({**table, "first_dealer": 0}, "Table") is not None
    assert problem({k: v for k, v in table.items() if k != "n"}, "Table") is not None
    assert problem({**table, "trump": "hearts"}, "Table") is not None
    assert problem({**table, "seats": [{**table["seats"][0], "user_id": 5}]}, "Table") is not None


def test_the_generated_files_are_what_the_schema_and_the_catalogues_write(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: this check runs web/generate.mjs (CI has Node.js)")
    if not (WEB / "node_modules" / "json-schema-to-typescript").is_dir():
        pytest.fail("web/node_modules is missing: run `npm ci` in web/")
    subprocess.run(
        [node, "generate.mjs", "--outdir", str(tmp_path)],
        cwd=WEB,
        check=True,
        capture_output=True,
        timeout=120,
    )
    redo = "run `npm run generate` in web/ and commit the result"
    for name in ("protocol.ts", "catalogue.ts"):
        written = (tmp_path / name).read_text()
        assert written == (WEB / "src" / name).read_text(), f"web/src/{name}: {redo}"
    doc = (tmp_path / "activity-protocol.md").read_text()
    assert doc == (ROOT / "docs" / "activity-protocol.md").read_text(), f"the document: {redo}"

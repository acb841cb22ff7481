"""What people read: lobby, table, private hand, hand summary, score sheet, end of game, and
the records' messages; one module for each.

Pure functions from the table model (``bot/table/table_model.py``: what one reader may see, built
once from the session) and plain values (a language, notes) to text and embeds, in one
language. No renderer reads a session or a game. Buttons are built in ``ui.py``.
"""

from __future__ import annotations

from .end import end_embed, end_notice, ranking_text, stopped_embed, winners_text
from .hand import closed_hand_content, hand_content, last_play_lines, standing_text
from .lobby import draw_line, expired_embed, lobby_embed
from .records import leaderboard_embed, rules_embed, stats_embed
from .sheet import CHART_FILE, SUMMARY_ROWS, score_chart_png, sheet_block, trump_letter
from .summary import all_tricks, hand_summary
from .table import change_notes, goal_text, table_embed, tiebreak_text, turn_ping
from .words import (
    COLOUR,
    MINUS,
    cards_text,
    game_title,
    named,
    named_score,
    rules_line,
    signed,
    trump_text,
)

__all__ = [
    "CHART_FILE",
    "COLOUR",
    "MINUS",
    "SUMMARY_ROWS",
    "all_tricks",
    "cards_text",
    "change_notes",
    "closed_hand_content",
    "draw_line",
    "end_embed",
    "end_notice",
    "expired_embed",
    "game_title",
    "goal_text",
    "hand_content",
    "hand_summary",
    "last_play_lines",
    "leaderboard_embed",
    "lobby_embed",
    "named",
    "named_score",
    "ranking_text",
    "rules_embed",
    "rules_line",
    "score_chart_png",
    "sheet_block",
    "signed",
    "standing_text",
    "stats_embed",
    "stopped_embed",
    "table_embed",
    "tiebreak_text",
    "trump_letter",
    "trump_text",
    "turn_ping",
    "winners_text",
]

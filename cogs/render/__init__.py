"""What players read, one module per kind of message; pure functions of the service's read
model (TableView, PlayerView) to message bodies, so one place decides what is public.

- `table`: the table message (lobby, game in play, final result, closed, moved).
- `hand`: a player's private messages (their hand, a finished hand, the welcome DM).
- `scores`: the phone-width scoresheet (`/ohhell scores` and the final message).
- `commands`: help, rules, leaderboard, stats, settings and notify answers.
- `nudges`: turn reminders; `notices`: when the bot cannot reach a channel or a DM.
- `lines`: lines several messages show, each written once (cards, trump, over/under, a
  seat's result); `body`: `Render`, the body every message is, and the colours.

Nothing here sends: the presenter and delivery do (docs/architecture.md).
"""

from cogs.render.body import Render
from cogs.render.commands import (
    help_embed,
    leaderboard_embed,
    notify_text,
    rules_embed,
    settings_embed,
    stats_embed,
)
from cogs.render.hand import hand_message, hand_over_message, welcome_dm
from cogs.render.lines import game_title, points, seat_label, trick_text, trump_text
from cogs.render.notices import (
    DM_CLOSED_NOTICE,
    archived_notice,
    dm_closed_notice,
    no_access_notice,
)
from cogs.render.nudges import NudgeText, turn_nudge, warning_nudge
from cogs.render.scores import PHONE_WIDTH, scoresheet, scoresheet_text
from cogs.render.table import CHART_FILE, TableExtras, moved_message, table_message

__all__ = [
    "CHART_FILE",
    "DM_CLOSED_NOTICE",
    "PHONE_WIDTH",
    "NudgeText",
    "Render",
    "TableExtras",
    "archived_notice",
    "dm_closed_notice",
    "game_title",
    "hand_message",
    "hand_over_message",
    "help_embed",
    "leaderboard_embed",
    "moved_message",
    "no_access_notice",
    "notify_text",
    "points",
    "rules_embed",
    "scoresheet",
    "scoresheet_text",
    "seat_label",
    "settings_embed",
    "stats_embed",
    "table_message",
    "trick_text",
    "trump_text",
    "turn_nudge",
    "warning_nudge",
    "welcome_dm",
]

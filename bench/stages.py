"""Where a click's time goes: bench/bot.py's run with each click's path stamped stage by stage.

    python bench/stages.py --tables 10000 --actions 3000     # any bench/bot.py options

Runs bench/bot.py as it is, with the functions a card or bid click passes through wrapped to
note the wall clock as the click reaches each (keyed by the interaction, carried in a context
variable through the click's own task), and prints, after bench/bot.py's own report, each
stage's time from the one before at p50 and p99 over every click, and its median in the
slowest 1%. The wrappers cost a few microseconds a stage; the stages are:

    fired -> parsed         discord.py's parse of the INTERACTION_CREATE (the bench's fire)
    -> handler              its dispatch to the DynamicItem's callback (cogs/views.py)
    -> service.act          the cog until it calls the service (claim, deferral timer)
    -> ledger.apply         the runner's inbox and turn
    -> record               the engine's move
    -> recorded             the table's row built (TableRecord: the game's snapshot JSON)
    -> saved                the save (bot/ledger.py, store.save_table)
    -> followed             settling (timer, computers) and publishing (the presenter's plans)
    -> answered             the answer rendered and handed to Discord (cogs/ohhell.py)

Figures (2026-12-02, stop 27, the shared 2-core machine) are in bench/bot.py's docstring.
"""

from __future__ import annotations

import contextvars
import functools
import importlib.util
import inspect
import itertools
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import bot.ledger  # noqa: E402
import bot.runner  # noqa: E402
import bot.service  # noqa: E402
import bot.table  # noqa: E402
import cogs.ohhell  # noqa: E402
import cogs.views  # noqa: E402
from tests.discord.harness import Harness  # noqa: E402

# bench/bot.py by its path: as a module named `bot` it would hide the bot package
_spec = importlib.util.spec_from_file_location("bench_bot", os.path.join(ROOT, "bench", "bot.py"))
assert _spec is not None and _spec.loader is not None
bench_bot = importlib.util.module_from_spec(_spec)
sys.modules["bench_bot"] = bench_bot
_spec.loader.exec_module(bench_bot)

STAGES = ("fired", "parsed", "handler", "service.act", "ledger.apply", "record", "recorded",
          "saved", "followed", "answered")
stamps: dict[int, dict[str, float]] = defaultdict(dict)
clicking: contextvars.ContextVar[int | None] = contextvars.ContextVar("clicking", default=None)


def mark(stage: str, interaction_id: int | None = None) -> None:
    """The first time this click reaches `stage`."""
    key = clicking.get() if interaction_id is None else interaction_id
    if key is not None:
        stamps[key].setdefault(stage, time.perf_counter())


def stamped(owner: Any, name: str, before: str | None, after: str | None = None) -> None:
    """Wrap owner.name (a coroutine function or a plain one) to mark its entry and exit."""
    inner: Callable[..., Any] = getattr(owner, name)
    if inspect.iscoroutinefunction(inner):
        @functools.wraps(inner)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            if before:
                mark(before)
            try:
                return await inner(*args, **kwargs)
            finally:
                if after:
                    mark(after)
    else:
        @functools.wraps(inner)
        def wrapper(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            if before:
                mark(before)
            try:
                return inner(*args, **kwargs)
            finally:
                if after:
                    mark(after)
    setattr(owner, name, wrapper)


def install() -> None:
    fire = Harness.fire

    def fire_stamped(self: Harness, payload: dict[str, Any],
                     event: str = "INTERACTION_CREATE") -> None:
        mark("fired", int(payload["id"]))
        fire(self, payload, event)
        mark("parsed", int(payload["id"]))

    Harness.fire = fire_stamped  # type: ignore[method-assign]
    handle = cogs.views._handle

    async def handle_stamped(item: Any, interaction: Any, call: Any) -> None:
        clicking.set(interaction.id)  # the click's own task: every later stage sees it
        mark("handler")
        await handle(item, interaction, call)

    cogs.views._handle = handle_stamped
    stamped(bot.service.TableService, "act", "service.act")
    stamped(bot.ledger.Ledger, "apply", "ledger.apply")
    stamped(bot.table.LiveTable, "record", "record", "recorded")
    stamped(bot.ledger.Ledger, "_save", None, "saved")
    stamped(bot.runner.TableRunner, "_follow", None, "followed")
    on_call = bench_bot.Bench.on_call

    def on_call_stamped(self: Any, call: Any) -> None:
        if call.is_callback and call.interaction_id is not None:
            stamps[call.interaction_id].setdefault("answered", call.sent)
        on_call(self, call)

    bench_bot.Bench.on_call = on_call_stamped


def report() -> None:
    clicks = [s for s in stamps.values() if all(stage in s for stage in STAGES)]
    if not clicks:
        print("stages: no click went through every stage")
        return
    totals = sorted(s["answered"] - s["fired"] for s in clicks)
    cut = totals[len(totals) * 99 // 100]
    slowest = [s for s in clicks if s["answered"] - s["fired"] >= cut]
    ms = 1000
    print(f"stages of {len(clicks)} clicks (ms from the stage before: p50, p99; median in the "
          f"slowest 1%, {len(slowest)} clicks): total p50 {totals[len(totals) // 2] * ms:.2f}, "
          f"p99 {cut * ms:.2f}")
    for before, stage in itertools.pairwise(STAGES):
        spent = sorted(s[stage] - s[before] for s in clicks)
        slow = sorted(s[stage] - s[before] for s in slowest)
        p50, p99 = spent[len(spent) // 2], spent[len(spent) * 99 // 100]
        print(f"  {before:>12} -> {stage:<12} {p50 * ms:6.3f} {p99 * ms:6.3f}; "
              f"slowest {slow[len(slow) // 2] * ms:6.3f}")


if __name__ == "__main__":
    bench_bot.__doc__ = __doc__  # its --help describes this script, with bench/bot.py's options
    install()
    try:
        code = bench_bot.main()
    finally:
        report()
    raise SystemExit(code)

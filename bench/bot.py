"""Bot benchmark: many tables in progress, players acting through the real discord.py pipeline.

    python bench/bot.py [--tables 1000] [--players 4] [--humans K] [--rate 100] [--actions 12000]
    python bench/bot.py --idle 100000      # dealt tables nobody acts at: memory and tasks

Set-up (not measured): every table is stored as a lobby with its people seated, straight
through the store (the first 500; the rest are copies of their rows, made in SQL), each
person's Discord locale kept as their `/ohhell join` would have kept it (the locale the
harness's interactions carry), so the run measures steady play, not every person's first
click reading and writing their locale (cogs/voices.py); the bot
starts and resumes them as after a restart, and each is dealt with the real `/ohhell deal`,
whose hand DMs are the messages the players then click. 10,000 tables are ready in minutes
(through `/ohhell start`, `join` and `deal` each, it took over ten). Then players act
at `--rate` actions per second in total (an open arrival process, like people at many tables),
each with the bid button or card select of their own DM hand message, exactly as the bot sent
it. `--humans K` seats K people and `--players - K` computer players (`--bot-level`, default
random, paced by `--computer-delay`): a table is ready for its next person once the computers
after them have moved and that person's DM shows the controls. The real bot from `create_bot`
runs on a temporary SQLite database; only HTTP is faked (tests/discord/harness.py), so the
figures are the bot's own cost: interaction in, engine, SQLite commit, presenter, response out.

Prints per-action latency p50/p99 (from the gateway event to the interaction response, taken
when the bot's request reaches the fake Discord, before the fake's own work on it), REST
calls per human action and per player action (human and computer moves; besides the
responses), and the longest event-loop stall (a monitor task measures how late its 2 ms ticks
wake). Notifications are on as in the bot: a person whose turn waits `--nudge-after` seconds
(players here act after about --tables / --rate seconds, so some do) gets one nudge, deleted
once they act; the count is printed. Budgets (docs/architecture.md section 6): p99 < 5 ms, stall
< 20 ms at 10,000 tables and 100 actions/s on 2 cores; REST calls per action no more than before.

Also printed: the save p99, the process's resident memory (RSS, now and peak) and the number
of asyncio tasks alive at the end of the run, the CPU time per action (every thread of the
process) and the load average: the machine is shared, so every figure says how busy it was.
`--idle N` stores N dealt 4-player tables the same way (nobody acts), starts the bot on them (it
resumes every one) and prints the resume time, the RSS and the tasks alive, by kind.

Figures (2026-12-01, the shared 2-core machine; its load average in brackets, from `uptime`):
- At the issue's filing (issue 22), 10,000 tables at 100 actions/s: p99 29.8 ms, max 347 ms,
  stall 251 ms, save p99 20.4 ms, RSS 572 MB.
- Before this bench's rework (set-up by /ohhell start, join and deal; commit 1f5b26e):
  `--tables 1000 --actions 3000` [6.2]: set-up 72.8 s; 29 actions/s of 100; p50 2,037 ms,
  p99 2,369 ms; save p50 28 s; stall 680 ms; REST 2.14 per action; 5,714 tasks after the run.
  `--idle 10000` [7-9]: stored 60 s, resumed 132 s, RSS 364 MB; `--idle 100000` would take over
  half an hour to set up and resume, and more than 2 GiB (29 KB a table).
- After: `--idle 10000` [7.7]: stored 8.7 s, resumed 41 s, RSS 245 MB (peak 255), 2 tasks.
  `--idle 100000` [7.6]: stored 48 s, resumed 279 s, RSS 1,422 MB (peak 1,538 MB), 2 tasks.
  `--tables 1000 --actions 3000` [9.4]: set-up 28.5 s (stored 1.5, resumed 3.9, dealt 23.1);
  37 actions/s of 100; p50 2,035 ms, p99 2,551 ms; CPU 10.4 ms per action; REST 2.26.
  `--tables 200` / `2000 --rate 25 --actions 900 --profile F` [7.8 / 7.5]: CPU per action 12.2 /
  12.3 ms (profiled): nothing per action grows with the tables.
  `--tables 10000 --actions 3000` [8.5]: set-up 223 s (stored 3.9, resumed 7.7, dealt 211.6);
  39 actions/s of 100; p50 2,036 ms, p99 2,414 ms, stall 657 ms; save p50 43.8 s (the one
  writer's queue); CPU 10.4 ms per action (as at 1,000); REST 5.23 per action, 1.33 of them
  nudges (turns wait about 100 s here, past the 20 s nudge); RSS 569 MB; 7,677 tasks in flight.
  `--tables 1000 --actions 3000` at a quieter moment [3.0-3.6]: set-up 12.9 s; 97 actions/s
  of 100; p50 34 ms, p99 316 ms, max 413 ms; stall 145 ms; save p50 14.7 ms, p99 286 ms; CPU
  5.6 ms per action; REST 2.00 per action (table edit and next player's DM); 0 deferred, 0
  errors; 2 tasks after the run; RSS 170 MB.
  The live figures say how loaded the machine was more than how fast the bot is: at about 10 ms
  of CPU per action (bot, fake Discord and bench together) 100 actions/s need a whole core, and
  the process had a third of one; the interactions then queue (deferred after 2 s) and the
  bench's forgetting of old payloads shows as errors.
- On a quiet machine, main after the merges (344579c, 20:40 UTC, nothing else running):
  `--tables 1000 --actions 3000` [1.0]: set-up 10.1 s; 100 actions/s; p50 3.89 ms, p99 6.57 ms,
  max 27.3 ms; stall 5.1 ms; save p99 2.90 ms; CPU 6.4 ms per action; REST 2.00 per action;
  0 errors; 2 tasks after the run; RSS 171 MB.
  `--tables 10000 --actions 3000` [1.1]: set-up 92 s (stored 1.6, resumed 2.2, dealt 88.4);
  100 actions/s; p50 4.18 ms, p99 20.2 ms, max 38.8 ms; stall 9.3 ms; save p99 16.9 ms; CPU
  7.2 ms per action; REST 2.30 per action, 0.29 of them nudges (a turn waits about 100 s here,
  past the 20 s nudge), 2.00 without; 0 errors; 2 tasks after the run; RSS 460 MB. Against the
  filing's p99 29.8 ms, max 347, stall 251, save p99 20.4, RSS 572 MB: the stall budget
  (< 20 ms) is met, the p99 budget (< 5 ms) is not; the p99 follows the save p99 (the one
  writer).
- Where the tail came from (wip/speed): the store's writer thread. Each SQLite call takes the
  GIL back several times, and while the loop runs Python a thread waits up to the switch interval
  (5 ms) each time: a save took up to ~20 ms whenever the loop was busy, and on a loaded machine
  the writer fell seconds behind (save p50 7.8 s at 1,000 tables and only 20 actions/s, load 8.7;
  2.8 s with --switch-interval 0.0005). Besides, with a checkpoint every 100 writes the WAL never
  restarted, so the valve stopped the writer for 35-250 ms every few seconds (6 times in a
  1,000-table run with its set-up, load 9). Now: a checkpoint every 10 writes (the WAL restarts
  by itself: 2 valves in that run, all in the set-up's flood of saves, 0 during the actions), a
  0.5 ms switch interval (bot/client.py), and group commit (the saves
  waiting for the writer commit together: one trip to its thread, data/sqlite.py; that writer
  was then a thread of the store's own, GroupWriter).
  Back to back at load 9.1-9.5, `--tables 1000 --actions 1500 --rate 50`, before (0830559) /
  after: 37 / 47 actions/s of 50; p50 2,027 / 107 ms, p99 2,465 / 285 ms, max 2,782 / 367 ms;
  save p50 14.4 s / 37 ms, p99 19.9 s / 153 ms; deferred 2,222 / 0; stall 755 / 224 ms; CPU
  8.9 / 7.1 ms per action; REST 2.59 / 2.10 per action (before: backlog and deferrals); tasks
  after the run 1,013 / 4; RSS 191 / 163 MB.
  `--tables 1000 --actions 3000`, back to back at load 5.4-6.0, before / after: 34 / 55
  actions/s of 100 (the process's share of the machine, at 11.5 / 7.5 ms CPU per action);
  p50 2,030 / 109 ms, p99 2,353 / 222 ms, max 2,630 / 358 ms; save p50 29.4 s / 37 ms, p99
  49.6 s / 113 ms; deferred 3,532 / 0; errors 100 / 0; stall 625 / 278 ms; REST 2.01 / 2.24 per
  action (0.34 / 0.16 nudges; before, deferred answers and errors replace edits); tasks after
  the run 5,952 / 2; RSS 218 / 171 MB.
  `--tables 10000 --actions 3000` after, at load 6.6-6.2: set-up 153 s (dealt 140.6 s); 63
  actions/s of 100; p50 81 ms, p99 355 ms, max 983 ms; save p50 30 ms, p99 147 ms, valve 0;
  deferred 0, errors 0; stall 683 ms; CPU 7.8 ms per action; REST 4.10 per action, of them
  1.40 nudges (posted and deleted) and 1.70 table edits (at 63 actions/s a turn waits ~160 s,
  past the nudge and the half-turn warning that edits the table: at 100 actions/s neither);
  2 tasks after the run; RSS 463 MB. The budgets need the quiet machine to be judged; on this
  one the process had about half a core, and the latency is its queue.
  Where an action's time goes now (1,000 tables at 20 actions/s, load 6, stages timed from the
  gateway event; p50 / p99 ms): the save 5.8 / 34.6 (the writer thread waiting for a core on
  the busy machine), building the record before it 0.9 / 13.4, discord.py's parse and dispatch
  0.9 / 9.0, the response 0.7 / 9.0, settling and publishing 0.6 / 5.8; total p50 12.1, p99 58.
  Next step for the p99: a save needs no thread when the writer is idle (one statement, about
  0.2 ms in the loop's own thread, the thread kept for checkpoints and transactions).
- Group commit on aiosqlite (wip/aiogroup): the group is BEGIN IMMEDIATE, its statements and COMMIT
  handed to aiosqlite's queue at once (one trip per statement, but the thread never waits for the
  loop within a group), instead of GroupWriter's one trip per group on a thread of the store's own.
  Back to back, `--tables 1000 --actions 3000`, GroupWriter (a41313f) / aiosqlite, load 2.7-1.9 /
  1.9-1.5 (a quiet spell): 100 actions/s both; p50 4.76 / 4.79 ms, p99 11.87 / 9.55 ms, max 28.5 /
  18.5 ms; save p50 1.32 / 1.54 ms, p99 5.75 / 5.35 ms; valve 0 / 0; stall 16.3 / 11.0 ms; CPU 7.55
  / 7.68 ms per action; 0 deferred, 0 errors, 2 tasks after the run; RSS 169 / 171 MB. Overloaded,
  `--rate 300` (load 1.4 / 1.3): 205 / 224 actions/s of 300; p50 2,002 / 405 ms, p99 2,109 / 2,477
  ms; save p50 3,403 / 309 ms, p99 4,841 / 2,333 ms; deferred 1,790 / 436; stall 186 / 1,334 ms (not
  explained yet).
- On a quiet machine after all of it (42a1bb5, 23:03 UTC, nothing else running), `--tables 10000
  --actions 3000` [1.0-1.1]: set-up 57 s (stored 1.8, resumed 2.7, dealt 52.7); 100 actions/s;
  p50 4.74 ms, p99 20.56 ms, max 34.4 ms; stall 16.8 ms (p99 lateness 4.15 ms); save p50
  1.55 ms, p99 14.7 ms, valve 0; CPU 7.95 ms per action; REST 2.26 per action (PATCH DM 1.00,
  PATCH table 1.00, nudges 0.25 posted and 0.01 deleted); 0 deferred, 0 errors; 3 tasks after
  the run; RSS 475 MB. Against the same machine before (344579c above): p99 20.2 -> 20.6 ms,
  stall 9.3 -> 16.8 ms, save p99 16.9 -> 14.7 ms, REST 2.30 -> 2.26: the work under load
  changes little when the machine is quiet; p99 < 5 ms is not met (the path takes about 4 ms at
  p50 by itself: discord.py's parse, commit, publish, answer).
- The click path's CPU (wip/path): a seat's stored dict without asdict's deep copy (46 -> 13 us
  a save); a game's snapshot reuses the JSON of its rules and finished hands (88 -> 45 us at hand
  4 of classic, 309 -> 59 us at hand 18; byte for byte the whole encoding); one table view a
  click, not three; translations and card names looked up once; the new-DM marks of cogs/nudges
  kept by table (a game's end scanned every table's). Profiled (pyinstrument, 200 tables): the
  click's own task (parse to answer) ~50% of the loop's time, our service in it ~25% (commit
  12%, publish 12%), the answer's render and discord.py's edit_message ~14%; the other messages'
  renders and REST 24%; the bench's driver 11% (half of it discord.py's parse). Back to back,
  alternating, main (ae69a3c) / wip/path, on the busy shared machine (no quiet spell came):
  `--tables 1000 --actions 3000` [6.4-8.7]: 52, 44 / 44, 47 actions/s of 100; CPU 6.58, 7.36 /
  7.22, 6.25 ms per action; p50 292, 335 / 335, 317 ms; p99 531, 835 / 660, 617 ms (the
  process's share of the machine decides these, not the path); REST 2.26, 2.39 / 2.39, 2.35.
  `--tables 200 --actions 2000 --rate 40` [7.3-8.7]: 39, 35 / 40, 40 actions/s of 40; CPU
  7.90, 8.65 / 7.32, 7.78 ms per action (about 9% less); p50 330, 406 / 108, 156 ms; p99 679,
  963 / 470, 624 ms; stall 369, 601 / 348, 325 ms; REST 2.16, 2.16 / 2.18, 2.15.
- Inline saves (wip/tail): a save on an idle writer commits on the loop's own thread through a
  plain sqlite3 connection (data/sqlite.py), without the two thread hand-offs; the run prints how
  many single statements went inline and how many in groups. The machine was loaded (8 engineers;
  the bench got under half of its 100 actions/s), so these compare before and after only. Back
  to back, alternating, `--tables 1000 --actions 3000`, before (ae69a3c) / after, round 1 at
  load 6.2 / 7.0 and round 2 at 6.8 / 6.8 (1-minute load at each start): 44, 47 / 42, 45
  actions/s of 100; p50 339, 320 / 100, 76 ms; p99 725, 601 / 443, 179 ms; max 934, 784 / 522,
  270 ms; save p50 244, 228 / 0.90, 0.71 ms; save p99 600, 521 / 373, 17.0 ms; stall 527, 236
  / 205, 242 ms; valve 0, 0 / 1, 0; inline / in groups 4,693 / 1,518 and 6,074 / 0 (round 1's
  valve queued a backlog, and a backlog stays in groups until it drains); CPU 6.99, 6.44 /
  7.75, 7.45 ms per action; 0 deferred, 0 errors, 3 tasks after each run.
  `--tables 10000 --actions 3000` after, load 7.3 -> 7.1 (8.1 over 5 minutes): set-up 300 s;
  16 actions/s of 100, so every turn waited past the 20 s nudge (4.8 nudges and 18 REST calls
  per action); p50 817 ms, p99 2,700 ms; save p50 598 ms, p99 2,209 ms; 0 inline, 34,210 in
  groups (the writer never idle once); stall 1,852 ms; 178 deferred, 0 errors; RSS 502 MB.
  Overloaded like that, the bench measures the machine, not the bot: the 10,000-table budget
  needs a quiet machine to be judged. Once a backlog forms, saves stay on the group path (a
  save goes inline only when no write is queued), as here from the set-up on.
  Why the save p99 was 14.7 ms at 10,000 tables and 2.9 ms at 1,000 (quiet, group path): not
  SQLite's own work. Saves through the inline path alone, paced at 200/s on a store of 1,000 /
  10,000 tables (4.5 / 42.6 MB; load 7, 3,000 saves, three runs at 10,000): BEGIN 0.07, the
  statement 0.24-0.29, COMMIT 0.08-0.11 ms at p50 either way, total p50 0.43 / 0.42-0.49 ms,
  p99 7.4 / 5.9-8.1 ms (the busy machine's preemption); a 64 MB page cache for the inline
  writer (the default is 2 MB) changed nothing beyond the noise (p99 4.8-8.9 ms), nor did mmap.
  Saves during a background checkpoint: p99 10-16 ms against 4-6 ms outside (the checkpoint's
  fsyncs on the shared disk; 14-19 ms per checkpoint at p50, 34-111 ms at p99 here), and with a
  save every 5 ms the checkpoints rarely end between two saves, so the WAL restarts seldom and
  the valve opened 4-8 times per 3,000 saves at either size. What differs at 10,000 tables is
  the loop (longer stalls on the quiet machine: 16.8 against 5.1 ms), which each of the group
  path's hops waits for and an inline save does not: the likely cause, not measured on a quiet
  machine (there was none to be had); on a loaded disk, the checkpoints and the valve besides.
- Where the 10,000-table tail comes from (wip/stall, `--stall-stacks 5`; the machine was loaded,
  5-9, by other work, so the evidence is what does not depend on it: stacks, collections, CPU):
  (1) The collector. One young collection examined ~170k objects (tuples 82k, SeatViews 15k,
  lists 15k) for 318 ms of the loop thread's CPU (476 ms wall), and found 0 unreachable: a move
  frees a table's old, frozen state while allocating its new, so the threshold of 100,000 counts
  only net growth while the young generation fills with every table moved since. Now the bot
  freezes the survivors of every collection, young threshold 5,000 (bot/client.py): 84
  collections in a 74 s run (the first three examined 89k, 32k and 12k objects), p50 21 ms
  wall, max 119 ms of CPU (2,000 interactions in flight, deferred), 0 unreachable, no older
  generation to pass over; a full
  pass only once RSS grew by half (cycles that died frozen: a finished hand's DM slots,
  cogs/presenter.py's `slot.body = functools.partial(self._body, slot)`, are such cycles).
  (2) Nudges: at 10,000 tables a turn waits ~100 s, past the 20 s nudge, so an action brings
  0.25 nudges on the quiet machine and 1.2-2.9 here (a slower set-up leaves more turns waiting),
  each a preference read, a DM, a row, and later a delete and a row gone; REST per action 4-10
  against 2.0 at 1,000 tables. A table that closed also scanned every table's nudge state
  (cogs/nudges.py, ~30k entries: ~60 ms a close on the loaded machine); now an index by table.
  (3) Of the loop's late time it ran 39%, waited for a core 56% and slept (the GIL) 4%
  (schedstat; 53 s late in a 55 s run). While saves waited, the writer was mostly idle (the
  loop was late to hand it work or take the answer); the checkpointer sat in
  wal_checkpoint(PASSIVE), half of those samples in disk wait [D], and the writer's COMMIT
  sometimes in [D] too (the checkpoint's fsync; data/sqlite.py). The commonest late stacks:
  discord.py's View.__init__ at os.urandom, where the loop lets the GIL go (three Views a
  click: the table's controls, the hand's, and the one discord.py rebuilds from the clicked
  message), JSON of the snapshot (bot/table.py record), and the fake's message store.
  Back to back, `--tables 10000 --actions 3000`, main (ae69a3c) / wip/stall / main again,
  load 6.3-9.0 / 8.1-8.3 / 4.8-8.1: 49 / 36 / 75 actions/s of 100; p50 309 / 376 / 182 ms, p99
  1,258 / 1,379 / 536 ms, max 1,652 / 1,881 / 986 ms; stall 575 / 885 / 678 ms; save p99 1,028 /
  1,121 / 418 ms; CPU 8.26 / 9.48 / 8.51 ms per action; nudges 1.72 / 2.19 / 1.17 per action;
  REST 5.17 / 6.25 / 4.08; RSS 484 / 494 / 479 MB; 3 tasks after each. The latency follows the
  load (the process had a third to a half of a core); the p99 < 5 ms budget needs a quiet
  machine to be judged, and these runs do not judge it.
- On a quiet machine after this stop's merges (inline saves, the click path's CPU, the collector
  freezing survivors, nudges by table), 01:30 UTC 2026-12-02, load 0.9-1.1, `--tables 10000
  --actions 3000`, back to back, before (ae69a3c) / after (young threshold 1,000): 100 / 100
  actions/s; p50 4.37 / 3.65 ms, p99 8.60 / 7.16 ms, max 19.9 / 21.7 ms; save p50 1.38 / 0.52
  ms, p99 4.47 / 1.58 ms (5,883 of 5,883 writes inline); stall 9.2 / 19.5 ms (p99 lateness 3.50
  / 3.70 ms); CPU 7.35 / 6.67 ms per action; REST 2.26 / 2.25 per action; RSS 475 / 493 MB; 3
  tasks after each; 0 deferred, 0 errors. At a young threshold of 5,000 (the stall branch's
  choice) the same run gave p99 9.43 ms and a 30-39 ms stall: its 20 young collections in 30 s
  examined 8-12k objects each, p50 12 ms, max 30 ms (each reference into the frozen heap a
  cache miss); at 1,000, 116 collections of ~1.8k objects, p50 1.5 ms, max 5.9-7.1 ms. The
  before run met no large young collection in its 30 s (at 100,000 one examined ~170k objects
  for 320 ms on the loaded machine), so its stall is a short run's luck. `--stall-stacks 8`
  after: 5 moments over 8 ms late, 3 with a collection in them, the rest in the inline save's
  BEGIN IMMEDIATE / COMMIT (the loop's own thread writing while the checkpointer works).
  p99 < 5 ms is not met: the loop is busy ~65% of the time at 100 actions/s (6.7 ms of CPU an
  action, the fake Discord and the driver included), so a click often waits for another's work.
  `--idle 100000` after (beside CI, load 2): stored 55 s, resumed 113 s, RSS 1,380 MB (peak
  1,496 MB), 2 tasks (the idle one and the scheduler).
- The service's side of a click (wip/click): people's locales stored at set-up, as /ohhell join
  stores them (before, 1,472 of 2,000 profiled actions were a first click that read and wrote
  the person's locale: 1,009 single-statement writes for 600 actions, now 600); the stale-menu
  check reads the game's step, not a public state; a table's seat views kept until its next
  change (player_view 3 -> 2 a click); the driver reads the live table (no TableView a look); a
  save awaited in the table's own task (no task, shield and three loop hops a commit; tasks a
  click 6.2 -> 5.3). Back to back, alternating, base (f7f8d55 with this bench) / after, on the
  loaded shared machine: `--tables 1000 --actions 2000 --rate 50` [5.4-5.9]: 50 actions/s
  both; p50 11.2, 12.4 / 8.8, 8.1 ms; p99 108.8, 115.9 / 40.9, 41.4 ms; max 159, 157 / 88, 72
  ms; CPU 6.94, 6.45 / 6.94, 6.36 ms per action (the ~0.15 ms saved is inside the load's
  noise); REST 2.09, 2.14 / 2.13, 2.12; valve 0, all saves inline in all four. `--tables 1000
  --actions 3000` [4.4-5.4]: 79, 57 / 72, 58 actions/s of 100; p50 144, 199 / 10.9, 14.3 ms;
  p99 342, 497 / 34.5, 42.5 ms; saves in groups 1,994, 2,667 / 0, 0 (the base's WAL valve
  opened once in each run and its backlog kept the saves on the group path); CPU 6.14, 6.90 /
  6.30, 7.02 ms per action; REST 2.03, 2.21 / 2.06, 2.20. An inline save as one autocommit
  statement (no BEGIN IMMEDIATE / COMMIT: ~50 us a save in one micro-run, nothing in another)
  was reverted: its three 1,000-table runs at load 3-3.8 had 321-1,005 saves in groups and a
  valve in the one that printed it, where the base had 0-67 and none; the base's valves at load
  5 above say the valve may be the load's, not the statement's (not settled).
  `--tables 10000 --actions 3000`, base / after / after / base, load 2.6 -> 1.3 / 1.2 -> 2.7 /
  2.8 -> 4.1 / 3.9 -> 2.1 (other work came and went): 100 / 94 / 76 / 100 actions/s; p50 4.15 /
  7.12 / 10.05 / 3.65 ms; p99 14.6 / 26.1 / 45.2 / 9.0 ms; stall 21 / 100 / 230 / 18 ms; CPU
  7.53 / 6.60 / 7.12 / 6.60 ms per action; REST 2.25 / 2.33 / 3.67 (76/s: turns waited past
  the nudge) / 2.24; RSS 494 / 496 / 498 / 494 MB; 3 tasks after each. These follow the load
  (the two after runs met busy spells), not the branch; the 1,000-table pairs above are the
  comparison. The base's quiet run (p99 9.0 ms, stall 18 ms) is still over the 5 ms budget.
- Quiet machine after stop 25's merges (the click's service side above; cheaper renders: the
  table message's edits leave out the controls it shows, fingerprints by marshal, card options
  made once), 03:50-04:10 UTC 2026-12-02, load 0.8-1.1, `--tables 10000 --actions 3000`, all
  with this driver (its people's locales stored), alternating base (f7f8d55) / main (8779332):
  100 actions/s in all; p50 3.11, 3.26 / 3.18, 2.94 ms; p99 5.43, 7.85 / 6.19, 5.03 ms; max
  10.6, 138.2 / 73.8, 10.3 ms; stall 8.0, 136.5 / 75.7, 12.3 ms; save p99 1.37, 1.41 / 1.69,
  1.59 ms; CPU 5.65, 5.88 / 5.75, 5.34 ms per action (6.7 last stop: the driver's locales and
  cheaper looks); REST 2.24 each; RSS 494-497 MB; 3 tasks after each. One run of each had a
  single 75-137 ms stall, not caught again with `--stall-stacks 20` (max 14.6 ms); in that run
  a young collection (p50 1.6 ms, max 7.7) ran during 25 of the 30 slowest responses. Young
  threshold 500 against 1,000, back to back (main, two pairs): p99 5.18 / 5.69 and 5.65 / 6.34
  ms, stall 12.2 / 16.0 and 12.5 / 14.8 ms, CPU 5.55 / 5.66 and 6.02 / 6.02 ms: 500 ships.
  Then 250 against 500, two more pairs: p99 5.34 / 5.64 and 5.70 / 6.40 ms, stall 52.4 / 12.0
  and 12.4 / 14.9 ms, CPU 5.70 / 5.88 and 6.05 / 6.00 ms: within the runs' spread (main's p99
  5.18-6.40 ms over four runs), and one stall, so 500 stays. p99 < 5 ms is not met.
- Stop 26 (2026-12-02), `--tables 10000 --actions 3000` unless said. The rare long stall was
  caught (`--actions 6000 --stall-stacks 40`, 245.8 ms): 197 of 200 samples of the loop in the
  inline save's statement while the checkpointer's thread was in disk wait; no save goes inline
  during a checkpoint any more (data/sqlite.py). The fake keeps its messages as marshal bytes
  (CPU per action 5.5-6.3 -> 5.1 ms at load 1.3), and the loop starts the young collections
  (bot/client.py; one core free, the other shared with a nice'd job, four pairs in turn, loop
  looks / Python's at 500: p99 4.45 / 5.43, 4.10 / 5.05, 4.23 / 4.97, 4.56 / 4.40 ms). Then,
  quiet (load 0.9-1.1), 06:06-06:16 UTC, main (0c32c18) / the session's base (73efbe5) in
  turn: p99 4.61 / 5.68, 4.83 / 5.55, 5.42 / 4.52 ms; stall 8.5 / 14.3, 9.4 / 12.0, 11.6 / 9.9
  ms; save p99 1.50 / 2.00, 1.45 / 1.70, 2.21 / 1.48 ms; CPU 5.44 / 5.68, 5.40 / 5.86, 5.60 /
  5.32 ms; REST 2.23-2.24 each; RSS 485 / 497 MB; 3 tasks after each. Later runs of the same
  code on the same quiet machine gave p99 4.74-8.4 ms: p99 follows the saves that met a
  checkpoint (49-92 of ~3,500 in the runs under 5 ms, 140-301 in those over), that is how
  long the disk took. In a plain sqlite3 loop of 3,000 commits at 120/s
  (not in the repository), commit p99 / max: 0.66 / 3.2 ms without checkpoints, 1.8-2.3 /
  28-38 ms with a PASSIVE checkpoint every 10 commits, 3.2 / 140-150 ms with the same
  checkpoints unsynced: the tail is the WAL's pages being written again from its start while
  the kernel writes them back, not the fsync. CHECKPOINT_EVERY 30 against 10 (two pairs):
  p99 6.75 / 5.89 and 7.60 / 4.79 ms, valves 1-2 / 0: 10 stays.
- Stop 27 (2026-12-02). The same plain loop (saves of a 3 KB row at 120/s in a file of 10,000
  rows, a PASSIVE checkpoint on another thread every 10) puts the tail on the save right after
  each checkpoint: it writes the WAL afresh and syncs its new header (SQLite does so under
  NORMAL too), p50 0.94-1.10 ms, max 9.3-14.6 ms, against p50 0.29-0.34 ms and p99 0.50-0.53 ms
  for the others (with a one-row write made first by the checkpoint's thread: those saves p50
  0.32 ms, max 0.8). So stop 26's reading (pages under writeback) was wrong: it is the fsync.
  Moving that first write to the store's writer thread (a one-row write queued as a checkpoint
  that copied the whole WAL ends) took the fsync off the loop but put the saves that came
  meanwhile on the group path: 218-279 saves in groups a run against the base's 89-115, save
  p99 1.97-2.68 against 1.37-1.95 ms, p99 5.02, 6.08, 5.27 against 4.47, 4.95, 5.32 ms (three
  pairs in turn, load 1.6-1.9, a slow spell: CPU 5.5-5.7 ms an action). Measured again later
  in a quiet spell (CPU 3.1-4.4 ms an action, load 0.4-0.7, the scheduler's fix below in both,
  three pairs in turn, writer's restart / inline): p99 3.29 / 3.07, 2.67 / 3.64, 3.30 / 3.23
  ms; save p99 0.73 / 0.88, 0.57 / 1.13, 0.80 / 1.05 ms, max 1.8 / 2.5, 1.4 / 4.7, 2.2 / 4.5
  ms; stall 7.5 / 6.0, 5.7 / 10.1, 6.7 / 7.5 ms; saves in groups 60 / 49, 40 / 48, 61 / 58;
  the loop's steps over 6 ms, all clicks' (timed around asyncio's Handle._run): none / 2-3 a
  run. It is kept (data/sqlite.py): the fsync's tail belongs off the loop, where only the
  saves behind it wait. At 1,000 tables and 10 actions/s the p50 / p99 were
  3.21 / 4.77 ms, as at 100 actions/s (3.26 / 4.72): the latency is the click's own path, not
  queueing behind other clicks. bench/stages.py splits that path (below); the answer is now
  timed when the bot's request reaches the fake, before the fake's own work on it (which took
  0.3 ms of the measured latency: 1,000 tables, p50 / p99 3.26 / 4.72 -> 2.91 / 4.45 ms).
  `python bench/stages.py --tables 10000 --actions 3000`, load 0.6-1.0, two runs, ms at p50
  (p99; median in the slowest 1%): discord.py's parse 0.32-0.35 (0.57-0.60; 0.45-0.47), its
  dispatch to our callback 0.25-0.28 (0.48; 0.40-0.41), the cog until the service 0.14-0.16,
  the runner 0.03, the engine's move 0.17-0.18, the table's row (snapshot JSON) 0.27-0.29
  (0.45-0.48; 0.40), the save 0.54-0.60 (1.36-1.45; 1.54-1.66), settling and publishing
  0.45-0.52 (0.79-0.89; 0.79), the answer 0.32-0.35 (0.56-0.58; 0.48); total p50 2.54 / 2.83,
  p99 4.22 / 4.49 ms. In the slowest 1% every stage is 30-60% slower and the save 2.5-3x: no
  one stage makes the tail. Then three runs of bench/bot.py in a fast spell (load 1.0-1.4):
  p99 3.61, 3.76, 4.14 ms; stall 13.8, 17.3, 13.6 ms; save p99 1.20-1.27 ms, max 4.0-10.2 ms;
  earlier in the stop (load 1.6-1.9, the answer timed after the fake's work) main's p99 was
  4.47-5.32 ms and two runs stalled 19.4 and 26.5 ms, which `--stall-stacks 14` (two runs,
  max 13.9 ms) did not catch again. Timing every step of the loop instead (a wrapper of
  asyncio's Handle._run, outside the repository) caught one: a 23.3 ms step of the scheduler
  (bot/scheduler.py), which handed on every deadline due at once in one step (the nudges of
  tables dealt together) and dropped every stale entry in a row (the heap held ~28,000, 21,700
  live); it now hands on one deadline a loop iteration. After it, in three runs, no scheduler
  step over 6 ms; the longest steps were single clicks (6-10 ms; one of 33.8 ms, the inline
  save's WAL header fsync, before the writer took that over).
  The stop's end (4b98017), quiet (load 0.4-0.7, CPU 3.3-4.2 ms an action), three runs: p99
  2.91, 2.73, 3.59 ms; stall 10.0, 5.0, 7.8 ms; save p99 0.70, 0.61, 0.85 ms, max 1.7-4.8;
  353, 351, 342 fresh starts of the WAL by the writer, 43-71 saves in groups of ~3,500; REST
  2.21, 2.20, 2.17 per action (0.17-0.20 nudges); RSS 485 MB; 3 tasks after each. `--idle
  100000`: stored 13.3 s, resumed 59.9 s, RSS 1,382 MB (peak 1,499 MB), 2 tasks.

Garbage collection: with 1,000 tables the heap holds ~180k objects, and a full collection of
it stalls the loop for 100-300 ms on this machine. The cogs leave no cyclic garbage per click
(cogs.views.release), so the bot freezes the start-up heap and the survivors of every
collection (bot/client.py); the bench collects (so freezes) once the tables are dealt.
The loop starts the young collections itself, between callbacks (bot/client.py).
`--gc-threshold` sets the young threshold it collects at, `--no-gc` turns collections off.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import dataclasses
import gc
import json
import logging
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter, deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Settings, create_bot
from bot import client as bot_client
from cogs import interact
from engine import Phase
from tests.discord.harness import Call, Harness, Member, snowflake

IDLE_WAIT = 86_400
"""Seconds the stored turns wait before they time out (--idle: the nudges wait an hour)."""
STORED_THROUGH_STORE = 500
"""Tables of the set-up written through the store; the rest are copies of them (copy_tables)."""


class Bench:
    def __init__(self, h: Harness, args: argparse.Namespace) -> None:
        self.h, self.args = h, args
        self.svc: Any = h.bot.tables  # type: ignore[attr-defined]
        self.presenter: Any = h.bot.presenter  # type: ignore[attr-defined]
        self.rng = random.Random(args.seed)
        self.answered: dict[int, asyncio.Future[float]] = {}
        self.rest: Counter[str] = Counter()
        self.deferred = 0
        self.done: deque[dict[str, Any]] = deque()
        self.counting = False
        self.saves: list[float] = []
        self.row_saves = [0, 0]  # table-row saves asked for during the run: [moves, no action]
        self.computer_moves = 0
        self.nudges = 0  # turn notifications sent (cogs/nudges.py)
        self.table_of_user: dict[int, int] = {}
        self.changed: dict[int, asyncio.Event] = {}  # table id -> a DM of it was sent
        self.last_save: dict[int, tuple[float, float]] = {}  # table id -> asked, done
        self.pending_saves: dict[object, float] = {}  # saves not done yet -> their start
        self.responses: list[tuple[float, float, tuple[float, float] | None]] = []
        """Per action with --stall-stacks: fired, answered, and its table's save in between."""
        store: Any = h.bot.store  # type: ignore[attr-defined]
        save = store.save_table

        async def timed_save(*a: Any, **k: Any) -> Any:  # how much of a move is the commit
            t0 = time.perf_counter()
            token = object()
            self.pending_saves[token] = t0
            if self.counting:  # counted when asked for: a backlog of saves is counted too
                action = a[1] if len(a) > 1 else k.get("action")
                self.row_saves[action is None] += 1
            try:
                return await save(*a, **k)
            finally:
                del self.pending_saves[token]
                if self.counting:
                    t1 = time.perf_counter()
                    self.saves.append(t1 - t0)
                    self.last_save[a[0].id] = (t0, t1)
                    action = a[1] if len(a) > 1 else k.get("action")
                    if action is not None and action.payload.get("by") == "computer":
                        self.computer_moves += 1

        store.save_table = timed_save
        self.message_writes = self.message_rows = 0  # bookkeeping in its own rows (0014)
        keep = getattr(store, "keep_messages", None)

        async def counted_keep(rows: Any, closed: Any = ()) -> None:
            if self.counting:
                self.message_writes += 1
                self.message_rows += len(rows) + len(closed)
            await keep(rows, closed)

        if keep is not None:
            store.keep_messages = counted_keep
        h.fake.record = False
        h.fake.pack()  # the fake's own messages must not weigh on the bot's garbage collector
        h.fake.on_call = self.on_call

    def on_call(self, call: Call) -> None:
        if call.is_callback and call.interaction_id in self.answered:
            if call.json["type"] in (5, 6):
                self.deferred += 1
            fut = self.answered.pop(call.interaction_id)
            if not fut.done():
                fut.set_result(call.sent)
        elif call.is_rest:
            if self.counting:
                kind = "DM" if call.audience is not None else "table"
                self.rest[f"{call.method} {kind}"] += 1
                if call.method == "POST" and "⏰" in str((call.json or {}).get("content")):
                    self.nudges += 1
            if call.audience is not None:  # a DM changed: its person may be able to act
                table_id = self.table_of_user.get(call.audience)
                if table_id is not None:
                    self.changed[table_id].set()

    async def interact(self, payload: dict[str, Any]) -> float:
        """Fire one interaction; seconds until its response went out."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.answered[int(payload["id"])] = fut
        start = time.perf_counter()
        self.h.fire(payload)
        return await fut - start

    async def deal_table(self, channel: int, host: Member) -> int:
        """`/ohhell deal` at a stored lobby (its people already seated): the real command,
        whose hand DMs are the ones the players then click."""
        await self.interact(self.h.slash("ohhell deal", host, channel=channel))
        tables = self.svc.directory
        await self.until(lambda: getattr(tables.find_table(channel), "state", 1) is not None)
        view = self.svc.directory.find_table(channel)
        self.changed[view.table_id] = asyncio.Event()
        for s in view.seats:
            if s.user_id is not None:
                self.table_of_user[s.user_id] = view.table_id
        await self.presenter.wait_delivered(view.table_id)
        return int(view.table_id)

    @staticmethod
    async def until(done: Any) -> None:
        """Wait for the set-up step the bot answered (maybe deferred) to be done."""
        while not done():
            await asyncio.sleep(0.01)

    async def next_move(self, table_id: int) -> dict[str, Any] | None:
        """The awaited person's click on their DM hand message, or None when the game is over.

        With computer seats, waits until the computers after the last person have moved and
        the next person's DM shows their controls, as that person would: it looks again each
        time a DM of the table is sent (or after a second, when the game may have ended
        without a DM changing)."""
        changed = self.changed[table_id]
        while True:
            changed.clear()
            table = self._live(table_id)
            actors = None if table is None or table.game is None else table.game.actor_seats()
            if not actors:
                return None
            payload = self._click_for(table_id, table, actors[0])
            if payload is not None:
                return payload
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 1.0)

    def _click_for(self, table_id: int, table: Any, seat: int) -> dict[str, Any] | None:
        s = table.seats[seat]
        if s.user_id is None or s.autopilot:
            return None  # a computer's turn: it moves by itself
        member = self.h.members[s.user_id]
        pv = self.svc.directory.seat_view(table_id, seat)
        mid = s.dm_message_id
        if mid is None:
            return None  # the new hand's DM is on its way
        bidding = pv.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING)
        if bidding:
            offered = {c["label"] for c in self.h.components(mid)
                       if c["type"] == 2 and not c.get("disabled")}
            legal = {str(b) for b in pv.legal_bids}
        else:
            offered = {o["value"] for c in self.h.components(mid) if c["type"] == 3
                       for o in c["options"]}
            legal = {c.code for c in pv.legal_cards}
        if offered != legal:
            return None  # the DM does not show this turn's controls yet
        if bidding:
            return self.h.click(mid, str(self.rng.choice(pv.legal_bids)), member)
        return self.h.select(mid, [self.rng.choice(pv.legal_cards).code], member)

    def _live(self, table_id: int) -> Any:
        """The bot's live table (bot/table.py LiveTable), None once closed: read in place, as
        building its public view (every seat, the public state) for the driver's look at whose
        turn it is would add the bench's own work to the CPU per action measured."""
        try:
            return self.svc.directory.get(table_id)
        except Exception:
            return None

    async def act(self, table_id: int, latencies: list[float]) -> bool:
        payload = await self.next_move(table_id)
        if payload is None:
            return False
        fired = time.perf_counter()
        latency = await self.interact(payload)
        latencies.append(latency)
        if self.args.stall_stacks:
            save = self.last_save.get(table_id)
            self.responses.append((fired, fired + latency,
                                   save if save is not None and save[0] >= fired else None))
        # the DMs show the new turn before the next move
        await self.presenter.wait_delivered(table_id)
        self.done.append(payload)  # forgotten later: a deferred answer may still be on its way
        while len(self.done) > 2000:
            self.h.fake.forget(self.done.popleft())
        return True



def _print_stacks(samples: Counter[tuple[str, ...]], top: int) -> None:
    """The `top` most common sampled stacks, each with its count."""
    for stack, n in samples.most_common(top):
        print(f"  {n:5d} x {stack[0]}")
        for line in stack[1:]:
            print(f"          {line}")


async def store_tables(path: Path, guild: int, channels: list[int], args: argparse.Namespace,
                       people: list[list[tuple[str, int, str]]], *, dealt: bool = False) -> None:
    """Store a table in each channel straight through the store (set-up, not measured): a
    lobby with its people (`people[i]`, names, ids and Discord locales) and `--players` -
    `--humans` computer seats, or with `dealt` a hand already dealt whose turn waits a day.
    Each person's locale is stored as their `/ohhell join` would have (cogs/voices.py), so
    their first click finds it kept and writes nothing. The bot resumes the tables at
    start-up as it would after a restart."""
    from bot.models import TableOptions
    from data import Action, Seat, Store, TableStatus
    from engine import Game, Rules

    computers = args.players - args.humans
    options = TableOptions(max_cards=args.max_cards, computers=computers,
                           computer_level=args.bot_level).model_dump(mode="json")
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [args.max_cards]})
    deadline = time.time() + IDLE_WAIT  # nobody's turn runs out during the bench
    async def store_one(store: Store, i: int) -> None:
        seats = [Seat(name=name, user_id=uid) for name, uid, _ in people[i]]
        seats += [Seat(name=f"Bot {k + 1}", computer_level=args.bot_level)
                  for k in range(computers)]
        host = people[i][0][1]
        for _, uid, locale in people[i]:
            await store.set_locale(uid, locale)
        record = await store.create_table(
            guild_id=guild, channel_id=channels[i], host_id=host,
            rules_json=rules.model_dump_json(), seats=seats,
            action=Action("open", seat=0, user_id=host, payload={"options": options}),
            meta={"options": options, "dm_failed_seats": []})
        if dealt:
            game = Game.new(players=len(seats), rules=rules, seed=i)
            await store.save_table(dataclasses.replace(
                record, status=TableStatus.PLAYING, snapshot_json=game.to_json(),
                turn_deadline=deadline), Action("deal", user_id=host, payload={
                    "seed": i, "players": len(seats)}))

    through_store = min(len(channels), STORED_THROUGH_STORE)
    async with await Store.open(f"sqlite:///{path}") as store:
        for start in range(0, through_store, 100):  # the writer takes them one after another
            await asyncio.gather(*(store_one(store, i)
                                   for i in range(start, min(start + 100, through_store))))
    copy_tables(path, channels, people, through_store)


def copy_tables(path: Path, channels: list[int], people: list[list[tuple[str, int, str]]],
                stored: int) -> None:
    """Tables `stored` and up as copies of the first `stored` ones (their rows and logs), with
    their own channel and people (and the people's locales): 100,000 tables stored in seconds,
    not half an hour."""
    if stored >= len(channels):
        return
    db = sqlite3.connect(path)
    with db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(game_tables)")]
        ids = [row[0] for row in db.execute("SELECT id FROM game_tables ORDER BY id")]
        rows = {row[0]: row for row in db.execute(
            f"SELECT {', '.join(columns)} FROM game_tables")}
        logs: dict[int, list[tuple[Any, ...]]] = {table_id: [] for table_id in ids}
        for entry in db.execute("SELECT id, table_id, seat, user_id, action, payload_json, at "
                                "FROM action_log ORDER BY id"):
            logs[entry[1]].append(entry)
        next_table = max(ids) + 1
        next_action = int(db.execute("SELECT max(id) FROM action_log").fetchone()[0]) + 1
        new_tables: list[tuple[Any, ...]] = []
        new_log: list[tuple[Any, ...]] = []
        locales: list[tuple[int, str, float]] = []
        now = time.time()
        for i in range(stored, len(channels)):
            model = ids[i % stored]
            row = dict(zip(columns, rows[model], strict=True))
            who = {old: new for (_, old, _), (_, new, _) in zip(people[i % stored], people[i],
                                                                 strict=True)}
            locales += [(uid, locale, now) for _, uid, locale in people[i]]
            seats = json.loads(row["seats_json"])
            for seat, (name, _, _) in zip(seats, people[i], strict=False):
                seat["name"], seat["user_id"] = name, who[seat["user_id"]]
            for entry in logs[model]:
                new_log.append((next_action, next_table, entry[2], who.get(entry[3], entry[3]),
                                *entry[4:]))
                row["last_action_id"] = next_action
                next_action += 1
            row.update(id=next_table, channel_id=channels[i], host_id=who[row["host_id"]],
                       seats_json=json.dumps(seats))
            new_tables.append(tuple(row[c] for c in columns))
            next_table += 1
        db.executemany(f"INSERT INTO game_tables ({', '.join(columns)}) "
                       f"VALUES ({', '.join('?' * len(columns))})", new_tables)
        db.executemany("INSERT INTO action_log (id, table_id, seat, user_id, action, "
                       "payload_json, at) VALUES (?, ?, ?, ?, ?, ?, ?)", new_log)
        db.executemany("INSERT INTO person_locales (user_id, locale, updated_at) "
                       "VALUES (?, ?, ?)", locales)
    db.close()

async def monitor(stop: asyncio.Event, stalls: list[float], tick: float = 0.002,
                  watch: StallWatch | None = None) -> None:
    """The event loop's lateness: how long past its 2 ms tick this task wakes."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(tick)
        woke = time.perf_counter()
        stalls.append(woke - t0 - tick)
        if watch is not None:
            watch.beat = woke


class StallWatch:
    """`--stall-stacks MS`: what the event loop was doing while it was late, and what the
    garbage collector cost.

    A watchdog thread reads the monitor's heartbeat every millisecond; while the loop is more
    than MS past its tick it samples the loop thread's stack (sys._current_frames), so a stack's
    count is about the milliseconds of lateness it was seen in (a sampler in the process sees
    the loop thread most where it lets the GIL go: os.urandom, I/O). The loop thread's
    scheduler figures (/proc schedstat) split the late time into running, waiting for a core
    (the machine's load) and sleeping (waiting for the GIL another thread holds, mostly).
    A collection holds the GIL (the watchdog cannot look during one), so gc.callbacks time
    every collection (wall and the collecting thread's CPU, per generation and thread) and a
    late moment with a collection in it says so. While a save has waited over MS, the other
    threads are sampled too (stack, statement, and R running / S sleeping / D disk).
    """

    ROOT = str(Path(__file__).resolve().parents[1]) + "/"
    SKIPPED = ("/asyncio/events.py", "/asyncio/base_events.py", "/threading.py")

    def __init__(self, threshold: float, tick: float) -> None:
        self.threshold, self.tick = threshold, tick
        self.beat = time.perf_counter()
        self.loop_thread = threading.get_ident()
        self.loop_tid = threading.get_native_id()
        self.late_split = [0.0, 0.0, 0.0]  # seconds late: running, waiting for a core, asleep
        self.young_kinds: list[tuple[int, list[tuple[str, int]]]] = []  # the first three
        self.samples: Counter[tuple[str, ...]] = Counter()
        self.late_moments: list[tuple[float, float, float]] = []  # start, end, gc ms inside
        self.collections: list[tuple[float, float, int, bool]] = []  # start, end, gen, loop's
        self.collection_cpu: list[float] = []  # seconds of the collecting thread's CPU each
        self.collected = 0  # unreachable objects the collections found
        self._gc_start = self._gc_cpu = 0.0
        self.pending_saves: dict[object, float] = {}
        """Saves asked for and not done yet (the bench's timed_save): their start."""
        self.save_samples: Counter[tuple[str, ...]] = Counter()
        self._names: dict[int, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="stall-watch", daemon=True)

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        gc.callbacks.remove(self._on_gc)
        self.gc_after = (f"threshold {gc.get_threshold()}, counts {gc.get_count()}, "
                         f"{gc.get_freeze_count()} frozen, {len(gc.get_objects(2))} tracked "
                         f"in gen 2")

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            if info["generation"] == 0 and len(self.young_kinds) < 3:
                young = gc.get_objects(0)  # what a young collection examines, by type
                self.young_kinds.append((len(young), Counter(
                    type(o).__name__ for o in young).most_common(6)))
                del young
                now = time.perf_counter()
            self._gc_start, self._gc_cpu = now, time.thread_time()
        else:
            self.collections.append((self._gc_start, now, info["generation"],
                                     threading.get_ident() == self.loop_thread))
            self.collection_cpu.append(time.thread_time() - self._gc_cpu)
            self.collected += info["collected"]

    def _gc_ms(self, start: float, end: float) -> float:
        return sum(min(e, end) - max(s, start) for s, e, _, _ in self.collections[-50:]
                   if e > start and s < end) * 1000

    @staticmethod
    def _schedstat(tid: int) -> tuple[float, float]:
        """Seconds a thread has run and waited for a core (Linux; zeros elsewhere)."""
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                ran, waited = f.read().split()[:2]
            return int(ran) / 1e9, int(waited) / 1e9
        except (OSError, ValueError):
            return 0.0, 0.0

    def _watch(self) -> None:
        moment: float | None = None
        calm = (time.perf_counter(), *self._schedstat(self.loop_tid))
        while not self._stop.wait(0.001):
            now = time.perf_counter()
            self._sample_saves(now)
            beat = self.beat
            stat = (now, *self._schedstat(self.loop_tid))
            if now - beat - self.tick < self.threshold:
                if moment is not None:
                    self.late_moments.append((moment, beat, self._gc_ms(moment, beat)))
                    moment = None
                    wall, ran, waited = (b - a for a, b in zip(calm, stat, strict=True))
                    for i, part in enumerate((ran, waited, max(0.0, wall - ran - waited))):
                        self.late_split[i] += part
                calm = stat
                continue
            if moment is None:
                moment = beat + self.tick
            frame = sys._current_frames().get(self.loop_thread)
            self.samples[self._stack(frame)] += 1

    def _sample_saves(self, now: float) -> None:
        """While a save has waited over the threshold, what the other threads are doing."""
        try:
            oldest = min(self.pending_saves.values(), default=now)
        except RuntimeError:  # changed by the loop meanwhile: look again in a millisecond
            return
        if now - oldest < self.threshold:
            return
        me = threading.get_ident()
        for ident, frame in sys._current_frames().items():
            if ident in (me, self.loop_thread):
                continue
            if ident not in self._names:
                self._names = {t.ident or 0: f"{t.name.split(' ')[0]}/{t.native_id}"
                               for t in threading.enumerate()}
            name = self._names.get(ident, "?/0")
            try:
                with open(f"/proc/self/task/{name.split('/')[1]}/stat") as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                state = "?"
            sql = frame.f_locals.get("sql") if frame.f_code.co_name.startswith(
                "_execute") else None
            key = (f"{name.split('/')[0]} [{state}]"
                   + (f" running {' '.join(str(sql).split())[:48]!r}" if sql else ""),
                   *self._stack(frame)[:3])
            self.save_samples[key] += 1

    def _stack(self, frame: Any) -> tuple[str, ...]:
        lines: list[str] = []
        while frame is not None and len(lines) < 7:
            path = frame.f_code.co_filename
            if not lines or not path.endswith(self.SKIPPED):  # the innermost always
                where = path.removeprefix(self.ROOT)
                if "site-packages/" in where:
                    where = where.split("site-packages/", 1)[1]
                elif "/lib/python" in where:
                    where = "stdlib/" + where.split("/lib/python", 1)[1].split("/", 1)[1]
                lines.append(f"{where}:{frame.f_lineno} {frame.f_code.co_name}")
            frame = frame.f_back
        return tuple(lines) or ("(no Python frame)",)

    def report(self, responses: list[tuple[float, float, tuple[float, float] | None]],
               top: int = 8) -> None:
        """Print the late moments, the collections, where the slowest 1% of the responses
        spent their time and what overlapped them, and the most common late stacks."""
        ms = 1000
        ranked = sorted(responses, key=lambda r: r[1] - r[0])
        slowest = ranked[len(ranked) * 99 // 100:]
        slow = [(r[0], r[1]) for r in slowest]
        saved = [r for r in slowest if r[2] is not None]
        if saved:
            def stage(values: list[float]) -> str:
                return f"{statistics.median(values) * ms:.2f}/{max(values) * ms:.2f}"
            print(f"slowest {len(slowest)} responses (p99 and up), median/max ms: total "
                  + stage([e - s for s, e, _ in slowest]) + "; of the "
                  f"{len(saved)} with their save timed: until the save is asked "
                  + stage([v[0] - s for s, _, v in saved if v]) + ", the save "
                  + stage([v[1] - v[0] for _, _, v in saved if v]) + ", after it "
                  + stage([e - v[1] for _, e, v in saved if v]))
        late = self.late_moments
        with_gc = [m for m in late if m[2] > 0]
        total = sum(e - s for s, e, _ in late) * ms
        ran, waited, slept = (part * ms for part in self.late_split)
        print(f"stall-stacks: {len(late)} moments the loop was over {self.threshold * ms:g} ms "
              f"late ({total:.0f} ms late in all); {len(with_gc)} had a collection in them "
              f"({sum(m[2] for m in with_gc):.0f} ms of collections); the loop thread in "
              f"them (from just before each): ran {ran:.0f} ms, waited for a core "
              f"{waited:.0f} ms, slept {slept:.0f} ms (the GIL, mostly)")
        for gen in (0, 1, 2):
            runs = [(e - s) * ms for s, e, g, _ in self.collections if g == gen]
            cpu = [c * ms for c, (_, _, g, _) in zip(self.collection_cpu, self.collections,
                                                    strict=True) if g == gen]
            if runs:
                other = sum(1 for _, _, g, own in self.collections if g == gen and not own)
                print(f"  gc gen {gen}: {len(runs)} collections, {sum(runs):.1f} ms in all, "
                      f"p50 {statistics.median(runs):.2f} ms, max {max(runs):.2f} ms (CPU "
                      f"of the collecting thread: {sum(cpu):.1f} ms, max {max(cpu):.2f} ms)"
                      + (f" ({other} in other threads)" if other else ""))
        if self.collections:
            print(f"  the collections found {self.collected} unreachable objects")
        for size, kinds in self.young_kinds:
            print(f"  a young collection examined {size} objects: "
                  + ", ".join(f"{kind} {n}" for kind, n in kinds))
        print(f"  gc at the end: {self.gc_after}")
        if slow:
            hit = {gen: sum(1 for s0, e0 in slow if any(
                s < e0 and e > s0 and g == gen for s, e, g, _ in self.collections))
                for gen in (0, 1, 2)}
            stalled = sum(1 for s0, e0 in slow if any(s < e0 and e > s0 for s, e, _ in late))
            print(f"  of the {len(slow)} slowest responses: {stalled} overlapped a late "
                  f"moment; a collection ran during " + ", ".join(
                      f"{n} (gen {gen})" for gen, n in hit.items()))
        if self.save_samples:
            print(f"  the other threads while a save had waited over "
                  f"{self.threshold * ms:g} ms (one sample a millisecond each):")
            _print_stacks(self.save_samples, top)
        samples = sum(self.samples.values())
        print(f"  the loop thread's stack in {samples} samples (one a millisecond while late), "
              f"most common first:")
        _print_stacks(self.samples, top)


def rss_mb() -> tuple[float, float]:
    """Resident memory now and at its peak, in MB."""
    now = 0.0
    with contextlib.suppress(OSError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def task_kinds() -> str:
    """The asyncio tasks alive, counted by what they run (the three most common)."""
    kinds = Counter(getattr(t.get_coro(), "__qualname__", "?") for t in asyncio.all_tasks())
    return ", ".join(f"{kind} {n}" for kind, n in kinds.most_common(3))


def write_paths(driver: Any) -> tuple[int, int, int]:
    """The SQLite store's writes so far: inline, in groups, and refused inline (data/sqlite.py)."""
    return (getattr(driver, "written_inline", 0), getattr(driver, "written_in_groups", 0),
            getattr(driver, "inline_refused", 0))


def load_average() -> str:
    """The machine's 1/5/15-minute load (`uptime`): the figures depend on what else runs."""
    with contextlib.suppress(OSError), open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])
    return "unknown"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(discord_token=None, database_path=Path(tmp) / "bench.sqlite3",
                            sync_commands=False, computer_delay=args.computer_delay,
                            computer_workers=0,
                            default_turn_timeout=args.turn_timeout, dev_guild_id=None,
                            turn_nudge_after=args.nudge_after)
        h = Harness(create_bot(settings))
        humans = args.humans
        members = [h.member(f"p{i}") for i in range(args.tables * humans)]
        channels = [snowflake() for _ in range(args.tables)]
        t0 = time.perf_counter()
        await store_tables(settings.database_path, h.guild_id, channels, args, [
            [(m.name, m.id, m.locale) for m in members[i * humans:(i + 1) * humans]]
            for i in range(args.tables)])
        stored = time.perf_counter() - t0
        await h.start(channel_ids=channels)
        resumed = time.perf_counter() - t0 - stored
        bench = Bench(h, args)
        tables: list[int] = []
        for start in range(0, args.tables, 100):  # deal 100 tables at a time
            batch = range(start, min(start + 100, args.tables))
            tables += await asyncio.gather(*(
                bench.deal_table(channels[i], members[i * humans]) for i in batch))
        setup = time.perf_counter() - t0
        seated = (f"{humans} people and {args.players - humans} computer players "
                  f"({args.bot_level}, COMPUTER_DELAY {args.computer_delay:g} s)"
                  if humans < args.players else f"{args.players} people")
        print(f"{len(tables)} tables of {seated}: lobbies stored in {stored:.1f} s, resumed "
              f"in {resumed:.1f} s, dealt with /ohhell deal in {setup - stored - resumed:.1f} s "
              f"({len(bench.svc.directory.tables())} in progress)")
        gc.collect()
        if args.gc_threshold is not None:
            bot_client.YOUNG_GENERATION_THRESHOLD = args.gc_threshold
        if args.no_gc:
            gc.disable()
        if args.switch_interval is not None:  # after the bot's own (bot.client)
            sys.setswitchinterval(args.switch_interval)
        print(f"gc: {'off' if args.no_gc else 'on'}, young collections at "
              f"{bot_client.YOUNG_GENERATION_THRESHOLD} (Python's own at {gc.get_threshold()}), "
              f"GIL switch interval {sys.getswitchinterval() * 1000:g} ms, "
              f"{gc.get_freeze_count()} objects frozen")

        # REST calls are counted from a quiet moment (the set-up's held table edits and the
        # computers' first moves are out) until the last actions' consequences are out.
        quiet = getattr(settings, "table_edit_interval", 1.0) + args.computer_delay + 0.5
        await asyncio.sleep(quiet)
        latencies: list[float] = []
        stalls: list[float] = []
        stop = asyncio.Event()
        watch = None
        if args.stall_stacks:
            watch = StallWatch(args.stall_stacks / 1000, 0.002)
            watch.pending_saves = bench.pending_saves
            watch.start()
        mon = asyncio.create_task(monitor(stop, stalls, watch=watch))
        profile = cProfile.Profile() if args.profile else None
        if profile is not None:
            profile.enable()
        driver: Any = h.bot.store._driver  # type: ignore[attr-defined]
        valves0 = getattr(driver, "valves", 0)
        starts0 = getattr(driver, "wal_starts", 0)
        paths0 = write_paths(driver)
        bench.counting = True
        cpu0 = time.process_time()
        ready = list(tables)
        busy: set[asyncio.Task[Any]] = set()
        interval = 1 / args.rate
        loop = asyncio.get_running_loop()
        begin = next_at = loop.time()
        fired = 0

        failures: list[BaseException] = []

        async def one(table_id: int) -> None:
            try:
                if await bench.act(table_id, latencies):
                    ready.append(table_id)
            except Exception as err:  # counted and shown: a benchmark must not hide errors
                failures.append(err)

        while fired < args.actions and (ready or busy):
            if ready:
                i = bench.rng.randrange(len(ready))
                ready[i], ready[-1] = ready[-1], ready[i]
                task = asyncio.create_task(one(ready.pop()))
                busy.add(task)
                task.add_done_callback(busy.discard)
                fired += 1
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - loop.time()))
        if busy:
            await asyncio.gather(*busy)
        elapsed = loop.time() - begin
        cpu = time.process_time() - cpu0
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        valves = getattr(driver, "valves", 0) - valves0
        wal_starts = getattr(driver, "wal_starts", 0) - starts0
        inline, grouped, refused = (b - a for a, b in zip(paths0, write_paths(driver), strict=True))
        await asyncio.sleep(quiet)
        bench.counting = False
        stop.set()
        await mon
        if watch is not None:
            watch.stop()
        tasks = len(asyncio.all_tasks())
        rss_now, rss_peak = rss_mb()
        await h.close()

    n = len(latencies)
    rest = sum(bench.rest.values())
    ms = 1000
    print(f"{n} human actions (bids and plays from DM controls) in {elapsed:.1f} s "
          f"= {n / elapsed:.0f}/s offered {args.rate}/s, {len(tables)} tables in progress"
          + (f"; {bench.computer_moves} computer moves" if humans < args.players else ""))
    print(f"latency to the interaction response: p50 {statistics.median(latencies) * ms:.2f} ms"
          f", p99 {pct(latencies, 99) * ms:.2f} ms, max {max(latencies) * ms:.1f} ms")
    if bench.saves:
        p50, p99 = statistics.median(bench.saves) * ms, pct(bench.saves, 99) * ms
        print(f"SQLite saves during the run (store.save_table, moves and bookkeeping; one "
              f"writer, so a slow one delays the next): p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
              f"max {max(bench.saves) * ms:.1f} ms; "
              f"the WAL valve stopped the writer {valves} times; the writer started the WAL "
              f"afresh {wal_starts} times (after a checkpoint had copied it whole)")
    if inline + grouped:
        print(f"single-statement writes (saves): {inline} inline on the event loop's thread "
              f"(the writer idle), {grouped} in groups on the writer's thread (busy, or {refused} "
              f"the inline writer found locked)")
    logged, unlogged = bench.row_saves
    print(f"table-row saves asked for during the run: {logged + unlogged}, "
          f"{unlogged} of them without an action (bookkeeping): "
          f"{(logged + unlogged) / max(1, logged) * 1000:.0f} per 1,000 saved actions; "
          f"message-row writes: {bench.message_writes} ({bench.message_rows} rows)")
    print(f"REST calls per human action besides the response: {rest / n:.2f} "
          f"({', '.join(f'{k} {v / n:.2f}' for k, v in sorted(bench.rest.items()))})")
    moves = n + bench.computer_moves
    print(f"REST calls per player action (human and computer moves): {rest / moves:.2f} "
          f"({rest} calls, {moves} moves)")
    print(f"turn notifications (a person's turn waited {args.nudge_after:g} s; each is deleted "
          f"once they act): {bench.nudges} ({bench.nudges / n:.3f} per human action)")
    print(f"CPU per human action (the whole process, all threads): {cpu / n * ms:.2f} ms; "
          f"load average at the end: {load_average()}")
    print(f"interactions deferred (service slower than {interact.DEFER_AFTER} s): "
          f"{bench.deferred}")
    print(f"longest event-loop stall: {max(stalls) * ms:.1f} ms "
          f"(p99 lateness {pct(stalls, 99) * ms:.2f} ms)")
    print(f"asyncio tasks alive after the run: {tasks}; RSS {rss_now:.0f} MB "
          f"(peak {rss_peak:.0f} MB)")
    errors = len(h.fake.errors) + len(failures)
    print(f"errors: {errors}" + (f" (first: {failures[0]!r})" if failures else ""))
    ok = pct(latencies, 99) < 0.005 and max(stalls) < 0.020 and not errors
    print("budgets (p99 < 5 ms, stall < 20 ms):", "met" if ok else "NOT met")
    if watch is not None:
        watch.report(bench.responses)
    return 0


async def idle(args: argparse.Namespace) -> int:
    """`--idle N`: N dealt tables nobody acts at, resumed by the bot; memory and tasks."""
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        t0 = time.perf_counter()
        args.humans, args.players = 4, 4
        await store_tables(path, 1, [10**6 + i for i in range(args.idle)], args, [
            [(f"p{i}-{k}", 10**9 + 4 * i + k, "en-US") for k in range(4)]
            for i in range(args.idle)],
            dealt=True)
        print(f"{args.idle} dealt tables stored in {time.perf_counter() - t0:.1f} s")
        base_now, _ = rss_mb()
        settings = Settings(discord_token=None, database_path=path, sync_commands=False,
                            computer_workers=0, dev_guild_id=None,
                            turn_nudge_after=3600)  # kept, not due during the bench
        t0 = time.perf_counter()
        if args.trace_memory:
            tracemalloc.start()
        h = Harness(create_bot(settings))
        await h.start(channels=1)
        resumed = len(h.bot.tables.directory.tables())  # type: ignore[attr-defined]
        print(f"the bot resumed {resumed} tables in {time.perf_counter() - t0:.1f} s")
        gc.collect()
        await asyncio.sleep(1.0)
        tasks = len(asyncio.all_tasks())
        rss_now, rss_peak = rss_mb()
        print(f"RSS with {resumed} idle tables: {rss_now:.0f} MB (peak {rss_peak:.0f} MB; "
              f"{rss_now - base_now:.0f} MB more than before the bot started); "
              f"asyncio tasks: {tasks} ({task_kinds()}); load average {load_average()}")
        if args.trace_memory:
            top = tracemalloc.take_snapshot().statistics("lineno")[:args.trace_memory]
            for stat in top:  # where the memory the bot allocated since it started is held
                print(f"  {stat.size / resumed:8.0f} B/table {stat.traceback[0]}")
        print("budget (RSS < 2 GiB):", "met" if rss_peak < 2048 else "NOT met")
        await h.close()
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=1000, help="tables in progress (default 1000)")
    p.add_argument("--players", type=int, default=4, help="seats per table")
    p.add_argument("--humans", type=int, default=None,
                   help="people per table (default: every seat); the other seats are computers")
    p.add_argument("--bot-level", default="random", choices=("random", "easy"),
                   help="level of the computer seats (cheap ones: the bench measures the bot)")
    p.add_argument("--computer-delay", type=float, default=0.1,
                   help="COMPUTER_DELAY: seconds before computers move (small: a fast bench)")
    p.add_argument("--rate", type=float, default=100,
                   help="player actions per second in total (1,000 tables, a move every 10 s)")
    p.add_argument("--actions", type=int, default=12000, help="measured player actions")
    p.add_argument("--max-cards", type=int, default=2,
                   help="small hands, so most tables finish a hand (new DMs) during the run")
    p.add_argument("--turn-timeout", type=int, default=300,
                   help="seconds a turn waits before a computer moves for the person")
    p.add_argument("--nudge-after", type=float, default=20,
                   help="TURN_NUDGE_AFTER: seconds a person's turn waits before they are "
                        "notified (0: notifications off)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and the players' choices")
    p.add_argument("--gc-threshold", type=int, default=None,
                   help="young objects at which the loop collects (default: the bot's, "
                        "bot/client.py)")
    p.add_argument("--no-gc", action="store_true",
                   help="disable the cyclic garbage collector while measuring (diagnosis)")
    p.add_argument("--stall-stacks", type=float, default=0, metavar="MS",
                   help="diagnosis: sample the loop thread's stack whenever the loop is over MS "
                        "late, time every garbage collection, time the slowest responses by "
                        "stage; printed at the end (see StallWatch)")
    p.add_argument("--profile", metavar="FILE",
                   help="cProfile the measured actions (event loop thread) into FILE")
    p.add_argument("--trace-memory", type=int, default=0, metavar="K",
                   help="with --idle: the K source lines holding most of the bot's memory "
                        "(tracemalloc; slower)")
    p.add_argument("--idle", type=int, default=0, metavar="N",
                   help="instead: N dealt tables nobody acts at; print RSS and tasks")
    p.add_argument("--switch-interval", type=float, default=None, metavar="S",
                   help="sys.setswitchinterval after start-up (diagnosis: how long the store's "
                        "threads may wait for the GIL while the loop runs Python; the bot sets "
                        "0.0005, CPython's default is 0.005)")
    args = p.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]  # progress shows
    if args.idle:
        return asyncio.run(idle(args))
    if args.humans is None:
        args.humans = args.players
    if not 1 <= args.humans <= args.players:
        p.error("--humans must be between 1 and --players")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())

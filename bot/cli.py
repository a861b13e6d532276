"""`python -m bot`: run the bot, or `python -m bot play` for a game in the terminal.

The terminal game goes through the same TableService and store as the bot (a temporary
database unless --database is given: a file or a database URL, or alone the bot's own
DATABASE_URL / DATABASE_PATH; an unfinished terminal game in that database resumes),
with a presenter that prints. It reads one answer per line from stdin, so a test can pipe a
script; at end of input (or with --auto) a computer of --level plays your seat to the end.
Ctrl-C stops at once (a game in --database is kept and resumes with the same command).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.computer import decide
from bot.errors import TableError
from bot.guard import Guard
from bot.i18n import (
    DEFAULT_LANG,
    Lang,
    card_word,
    declaration_words,
    environment_lang,
    lang_for,
    say,
    t,
    tc,
)
from bot.models import COMPUTER_LEVELS, TableOptions, TableStatus, TableView
from bot.moves import read_card, refused
from bot.service import ServiceConfig, TableService
from bot.terminal import (
    TerminalPresenter,
    marks_cards,
    player_prompt_lines,
    scoresheet_lines,
)
from data import Store, StoreError, parse_address
from engine import Bid, Card, Declaration, Move, NameTrump, Phase, Play, PlayerView, Rules, Suit

if TYPE_CHECKING:
    from bot.settings import Settings

LOBBY_GUILD = 0
TERMINAL_CHANNEL = 1
"""The terminal game's pretend channel: one game at a time per database."""
YOU = 1
"""Your pretend user id."""

HELP = (
    "Answer with a bid (a number), a card (10h, TH, 10♥, QS, A♦; a * marks the cards you may "
    "play) or, when you name trump, a suit (C, D, H, S, then y to confirm it). Also: '?' asks the "
    "hard computer for a hint, 'a' lets the computer make this one move, 'auto' lets it play the "
    "rest, 'scores' shows the scores, 'help' this, 'q' quits (after a question). "
    "Ctrl-D hands your seat to the computer; Ctrl-C stops."
)
"""The help line in English (its msgid): `help_text(lang)` says it."""
YES = ("y", "yes", "j", "ja")
HELP_WORDS = ("help", "hjelp")
SCORES_WORDS = ("scores", "poeng")
QUIT_WORDS = ("q", "quit", "exit", "avslutt")
END_WORDS = ("end", "slutt")
"""What a player may type, in English or Norwegian (the help line names those of its language)."""


def help_text(lang: Lang = DEFAULT_LANG) -> str:
    return t(lang, "Answer with a bid (a number), a card (10h, TH, 10♥, QS, A♦; a * marks the "
                   "cards you may play) or, when you name trump, a suit (C, D, H, S, then y to "
                   "confirm it). Also: '?' asks the hard computer for a hint, 'a' lets the "
                   "computer make this one move, 'auto' lets it play the rest, 'scores' shows the "
                   "scores, 'help' this, 'q' quits (after a question). Ctrl-D hands your seat to "
                   "the computer; Ctrl-C stops.")

LIST_PRESETS = "list"
"""`--preset` given alone: describe the presets instead of playing."""
BOT_DATABASE = "settings"
"""`--database` given alone: the bot's own database settings (DATABASE_URL, DATABASE_PATH)."""
MAX_DELAY = 30.0


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Oh Hell Discord bot (needs DISCORD_TOKEN), or play in the terminal.",
    )
    parser.add_argument(
        "--heartbeat", type=Path, default=None, metavar="FILE",
        help="the heartbeat file, instead of HEARTBEAT_PATH (the Docker image passes it here, "
        "where no env file can empty it)",
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser(
        "health",
        help="exit 0 when the running bot is connected and its loop alive (HEARTBEAT_PATH)",
    )
    sub.add_parser(
        "where", help="print where the bot keeps its games and its heartbeat, from the settings"
    )
    replay = sub.add_parser("replay", help="step through an exported game (docs/export.md)")
    replay.add_argument("file", type=Path, help="the game's JSON file (/ohhell export game:)")
    replay.add_argument("--all", action="store_true", help="print every step without pausing")
    sub.add_parser("learn", help="a guided first hand: learn the game by playing it")
    play = sub.add_parser("play", help="play a game in the terminal against computer players")
    play.add_argument("--players", type=int, default=4, help="seats, you included (default 4)")
    play.add_argument(
        "--preset", nargs="?", const=LIST_PRESETS, default="classic",
        help="rule preset (default classic): "
        f"{', '.join(Rules.preset_names(special_cards=True))}; "
        "--preset alone describes them",
    )
    play.add_argument(
        "--level", default="medium",
        help=f"how well the computers play, yours on autopilot too: {', '.join(COMPUTER_LEVELS)}",
    )
    play.add_argument("--max-cards", type=int, default=None, help="largest hand (shorter games)")
    play.add_argument(
        "--database", nargs="?", const=BOT_DATABASE, default=None, metavar="FILE_OR_URL",
        help="keep the game in this SQLite file (its folder must exist) or database URL "
        "(sqlite:///..., postgresql://...); alone: the bot's DATABASE_URL or DATABASE_PATH. "
        "Without it the game is not kept",
    )
    play.add_argument("--seed", type=int, default=None, help="shuffle seed, for a repeatable game")
    play.add_argument("--name", default=None,
                      help="your name at the table (default: You, or Du in Norwegian)")
    play.add_argument("--auto", action="store_true", help="the computer plays your seat too")
    play.add_argument(
        "--delay", type=float, default=0.0, help="seconds before computer moves (default 0)"
    )
    play.add_argument(
        "--lang", default=None,
        help="nb (Norwegian) or en; default: the environment's LC_ALL, LC_MESSAGES or LANG",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    _utf8_output()
    if args.command == "play":
        if args.preset == LIST_PRESETS:
            print("\n".join(preset_lines(terminal_lang(args))))
            return 0
        problem = play_args_problem(args) or choose_play_database(args)
        if problem is not None:
            print(f"error: {problem}", file=sys.stderr)
            return 2
        try:
            return asyncio.run(play(args))
        except KeyboardInterrupt:
            print(f"\n{stopped_line(args, terminal_lang(args))}")
            return 130
    if args.command == "health":
        return health(args.heartbeat)
    if args.command == "where":
        return where(args.heartbeat)
    if args.command == "replay":
        from bot.replay_text import replay_file

        return replay_file(args.file, pause=sys.stdin.isatty() and not args.all, write=_print)
    if args.command == "learn":
        from bot.learn import learn_in_terminal

        return learn_in_terminal()
    return run_bot(args.heartbeat)


def terminal_lang(args: argparse.Namespace) -> Lang:
    """The terminal's language: --lang, else the environment's locale."""
    chosen = getattr(args, "lang", None)
    return lang_for(chosen) if chosen else environment_lang(os.environ)


def preset_lines(lang: Lang = DEFAULT_LANG) -> list[str]:
    """One line a preset: its name for --preset, its title and how many may play."""
    names = Rules.preset_names(special_cards=True)
    width = max(len(n) for n in names)
    lines = [t(lang, "The presets (python -m bot play --preset NAME):")]
    for name in names:
        rules = Rules.preset(name)
        lines.append(f"  {name:<{width}}  " + t(
            lang, "{title}, {least} to {most} players", title=tc(lang, "preset", rules.title),
            least=rules.min_players, most=rules.max_players))
    return lines


def play_args_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the terminal game's options, naming the option and its limit."""
    names = Rules.preset_names(special_cards=True)
    if args.preset not in names:
        return (f"--preset: no preset {args.preset!r}; one of {', '.join(names)} "
                "(--preset alone describes them)")
    rules = Rules.preset(args.preset)
    if not rules.min_players <= args.players <= rules.max_players:
        return f"--players: {rules.min_players} to {rules.max_players} players ({args.preset})"
    if args.level not in COMPUTER_LEVELS:
        return f"--level: one of {', '.join(COMPUTER_LEVELS)}"
    most = 52 // args.players
    if args.max_cards is not None and not 1 <= args.max_cards <= most:
        return f"--max-cards: 1 to {most} cards with {args.players} players"
    if not 0 <= args.delay <= MAX_DELAY:
        return f"--delay: 0 to {MAX_DELAY:g} seconds"
    return None


def choose_play_database(args: argparse.Namespace) -> str | None:
    """Resolve --database into `args.database` (a path or URL the store opens, None: a
    temporary one) and `args.database_shown`; what is wrong with it, in one line, else None.

    The same checks as the bot's start-up: a folder, a missing folder, a read-only file or an
    unknown URL is refused in words, and nothing is created but the database file itself."""
    from bot.settings import Settings, database_problem, setting_problem

    args.database_shown = None
    if args.database is None:
        return None
    if args.database == BOT_DATABASE:
        try:
            settings = Settings()
        except ValidationError as err:
            return setting_problem(err)
        target, setting = settings.database_target(), settings.database_setting()
    else:
        target, setting = args.database, "--database"
        if not target.strip():
            return "--database: name a file or a database URL (or give --database alone)"
    try:
        address = parse_address(target)
    except ValueError as err:
        return f"{setting}: {err}"
    args.database = target
    args.database_shown = str(address)
    return database_problem(address, setting)


def kept_in(args: argparse.Namespace) -> str | None:
    """Where the game is kept between runs, as the person is told it; None when it lives only
    as long as this run. Every line about keeping or resuming a game says it from here."""
    if args.database is None:
        return None
    return str(getattr(args, "database_shown", None) or args.database)


def stopped_line(args: argparse.Namespace, lang: Lang = DEFAULT_LANG) -> str:
    """The one line Ctrl-C (or quitting) leaves: what became of the game."""
    kept = kept_in(args)
    if kept is not None:
        return t(lang, "Stopped. The game is kept in {kept}: the same command goes on where you "
                       "stopped.", kept=kept)
    return t(lang, "Stopped. The game was not kept (play with --database FILE to keep one).")


def load_settings(heartbeat: Path | None) -> Settings:
    """The settings as the bot runs with them: the environment and .env, then --heartbeat.
    Raises ValidationError for an invalid setting."""
    from bot.settings import Settings

    settings = Settings()
    if heartbeat is not None:
        settings = settings.model_copy(update={"heartbeat_path": heartbeat})
    return settings


def health(heartbeat: Path | None = None) -> int:
    """The container's health check: is the running bot's heartbeat fresh? One line either way,
    which also says where the games are kept (a container's health log shows it)."""
    from bot.health import check
    from bot.settings import setting_problem

    try:
        settings = load_settings(heartbeat)
        shown = parse_address(settings.database_target())
    except ValidationError as err:
        print(f"unhealthy: {setting_problem(err)}")
        return 1
    path = settings.heartbeat_path
    if path is None:
        print("unhealthy: HEARTBEAT_PATH is not set, so the bot keeps no heartbeat to check")
        return 1
    problem = check(path)
    print(problem or f"healthy: heartbeat {path} is fresh; the games are kept in {shown}")
    return 0 if problem is None else 1


def where(heartbeat: Path | None = None) -> int:
    """Print where the bot, started with these settings, keeps its games and its heartbeat."""
    from bot.settings import setting_problem

    try:
        settings = load_settings(heartbeat)
    except ValidationError as err:
        print(f"error: {setting_problem(err)}", file=sys.stderr)
        return 2
    address = parse_address(settings.database_target())
    place = str(address.path.absolute()) if address.path is not None else str(address)
    print(f"database: {place} ({settings.database_setting()})")
    beat = settings.heartbeat_path
    print(f"heartbeat: {beat.absolute() if beat is not None else 'none (HEARTBEAT_PATH unset)'}")
    return 0


def _utf8_output() -> None:
    # Card symbols must not crash a terminal that is not UTF-8.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


PLAIN_LOG_FORMAT = logging.Formatter(
    "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
)
"""discord.py's own layout without its colours."""


def run_bot(heartbeat: Path | None = None) -> int:
    """Run the Discord bot until it is stopped; one clear line when it cannot start.

    Everything the person running it can get wrong (a setting, the database's place) is
    refused before logging in to Discord, so no table resumes only to fail every action."""
    from bot.settings import CannotStart, MissingToken, setting_problem

    try:
        settings = load_settings(heartbeat)
        token = settings.token()
    except MissingToken as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except ValidationError as err:
        print(f"error: {setting_problem(err)}", file=sys.stderr)
        return 2
    import aiohttp
    import discord

    from bot.client import check_store, create_bot

    database = settings.database_problem()
    if database is None:
        try:
            asyncio.run(check_store(settings))
        except CannotStart as err:
            database = str(err)
    if database is not None:
        print(f"error: {database}", file=sys.stderr)
        return 2

    bot = create_bot(settings)
    settings.apply_log_levels()
    # Colours only on a terminal: discord.py also colours a file or a pipe when it runs in
    # Docker, which leaves escape codes in every log a file or `docker logs` keeps.
    formatter: logging.Formatter = (
        discord.utils.MISSING if sys.stderr.isatty() else PLAIN_LOG_FORMAT
    )
    try:
        bot.run(token, log_level=getattr(logging, settings.log_level), root_logger=True,
                log_formatter=formatter)
    except discord.LoginFailure:
        problem = ("Discord refused the token in DISCORD_TOKEN: copy it again from the Developer "
                   "Portal (your application, Bot, Reset Token)")
    except discord.PrivilegedIntentsRequired as err:
        problem = str(err)
    except CannotStart as err:
        problem = str(err)
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound, TimeoutError) as err:
        problem = (f"cannot reach Discord ({type(err).__name__}: {err or 'timed out'}); "
                   "check the network connection and try again")
    except discord.HTTPException as err:
        problem = f"Discord answered {err.status} {err.text or ''}".strip() + "; try again later"
    else:
        return 0
    print(f"error: {problem}", file=sys.stderr)
    return 2


# ---- the terminal game ---------------------------------------------------------------------------


class Keyboard:
    """Lines from stdin, None at end of input (Ctrl-D).

    The bytes are read by a daemon thread straight from the file descriptor, not by the loop's
    executor nor through sys.stdin's buffer: a read blocked on the terminal then holds up
    neither the event loop nor the exit when Ctrl-C stops the game.
    """

    def __init__(self) -> None:
        self.closed = False
        self._buffer = b""

    async def line(self) -> str | None:
        while b"\n" not in self._buffer and not self.closed:
            chunk = await self._read()
            if chunk:
                self._buffer += chunk
            else:
                self.closed = True
        if not self._buffer:
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    @staticmethod
    async def _read() -> bytes:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()

        def deliver(chunk: bytes) -> None:
            if not answer.done():
                answer.set_result(chunk)

        def read() -> None:
            try:
                chunk = os.read(sys.stdin.fileno(), 4096)
            except (OSError, ValueError):  # stdin closed under us: as end of input
                chunk = b""
            # the loop may be gone (Ctrl-C): then nobody waits for this line
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(deliver, chunk)

        threading.Thread(target=read, name="keyboard", daemon=True).start()
        return await answer


async def play(args: argparse.Namespace, *, out: Callable[[str], None] | None = None) -> int:
    """Play one game in the terminal through the table service; 0 when it ends normally."""
    write = out or _print
    temp: tempfile.TemporaryDirectory[str] | None = None
    path: str | Path
    if args.database is None:
        temp = tempfile.TemporaryDirectory(prefix="ohhell-")
        path = Path(temp.name) / "ohhell.sqlite3"
    else:
        path = args.database
    try:
        store = await Store.open(path)
    except (StoreError, OSError, ValueError) as err:
        shown = getattr(args, "database_shown", None) or path
        write(t(terminal_lang(args), "error: cannot open the database {database}: {error}",
                database=shown, error=err))
        return 2
    lang = terminal_lang(args)
    presenter = TerminalPresenter(write, me_user_id=YOU, lang=lang)
    service = TableService(
        store,
        presenter,
        config=ServiceConfig(default_turn_timeout=0, computer_delay=max(0.0, args.delay),
                             hint_cooldown=0),  # one person, on their own machine
    )
    try:
        await service.resume_all()
        view = service.directory.find_table(TERMINAL_CHANNEL)
        kept = kept_in(args)
        if view is not None:
            if kept is not None:
                write(t(lang, "Resuming the unfinished game at table {table} (kept in {kept}).",
                        table=view.table_id, kept=kept))
            else:
                write(t(lang, "Resuming the unfinished game at table {table}.",
                        table=view.table_id))
        else:
            if kept is not None:
                write(t(lang, "No unfinished game in {kept}: a new table opens, kept there.",
                        kept=kept))
            try:
                options = TableOptions(
                    preset=args.preset,
                    computers=args.players - 1,
                    computer_level=args.level,
                    max_cards=args.max_cards,
                    seed=args.seed,
                    turn_timeout=0,
                    hints=True,  # one person and computers: never rated anyway
                )
            except ValidationError as err:
                write(f"error: {err.errors()[0]['msg']}")
                return 2
            try:
                view = await service.open_table(
                    LOBBY_GUILD, TERMINAL_CHANNEL, YOU, args.name or t(lang, "You"), options
                )
                if view.status is TableStatus.LOBBY:
                    view = await service.deal(view.table_id, YOU)
            except TableError as err:
                write(t(lang, "error: {error}", error=err.text(lang)))
                opened = service.directory.find_table(TERMINAL_CHANNEL)
                if opened is not None:  # opened but could not deal: do not leave it behind
                    await service.end(opened.table_id, YOU)
                return 2
            except ValueError as err:
                write(t(lang, "error: {error}", error=err))
                opened = service.directory.find_table(TERMINAL_CHANNEL)
                if opened is not None:  # opened but could not deal: do not leave it behind
                    await service.end(opened.table_id, YOU)
                return 2
        write(help_text(lang))
        return await _game_loop(service, view.table_id, write, args, lang=lang)
    finally:
        await service.close()
        await store.close()
        if temp is not None:
            temp.cleanup()


async def _game_loop(
    service: TableService,
    table_id: int,
    write: Callable[[str], None],
    args: argparse.Namespace,
    lang: Lang = DEFAULT_LANG,
) -> int:
    """Prompt for your moves until the game is over (the presenter prints everything else)."""
    keyboard = Keyboard()
    auto: bool = args.auto
    level: str = args.level
    shown_for: tuple[int, int] | None = None
    marks_explained = False
    while True:
        await service.wait_idle()
        try:
            view = service.directory.table(table_id)
        except TableError:
            return 0  # finished (the presenter printed the standings) or ended
        state = view.state
        if state is None:
            return 1
        me = service.directory.hand_view(table_id, YOU)
        if not me.to_act:
            # Waiting on nobody we can serve: only a computer can be awaited here, and the
            # service has already moved it. Nothing left to do means something is wrong.
            write(t(lang, "The game is stuck waiting for another player."))
            return 1
        key = (view.saves, state.hand_number)
        if key != shown_for:
            write("")
            explain = not marks_explained and marks_cards(me)
            for line in player_prompt_lines(view, me, lang, explain_marks=explain):
                write(line)
            marks_explained = marks_explained or explain
            shown_for = key
        prompt = _prompt(me, lang)
        text = None if auto else await _ask(keyboard, prompt, write, level, lang)
        try:
            lowered = (text or "").lower()
            if me.phase is Phase.TRUMP_CHOICE and text is not None and _is_suit(text):
                # a suit's letter is never a command here: it names trump, once confirmed
                suit = Suit.parse(text)
                question = t(lang, "Trump {suit} {symbol}? (y to name it, n to choose again): ",
                             suit=tc(lang, "suit", suit.label), symbol=suit.symbol)
                answer = await _ask(keyboard, question, write, level, lang)
                if answer is None:
                    text = None  # end of input: the computer names trump for you
                elif answer.lower() in YES:
                    await service.choose_trump(table_id, YOU, suit, state.hand_number)
                    continue
                else:
                    write("  " + t(lang, "Not named: choose trump again."))
                    continue
            if text is None or lowered in ("a", "auto"):
                if text is None or lowered == "auto":
                    auto = True
                move = await asyncio.get_running_loop().run_in_executor(
                    None, decide, level, view.saves, me
                )
                write(f"{prompt}{_move_text(move, lang)}  " + t(lang, "(computer's choice)"))
                await _submit(service, table_id, me, move)
                continue
            if lowered in QUIT_WORDS:
                quit_status = await _quit(service, table_id, keyboard, write, args, lang)
                if quit_status is not None:
                    return quit_status
            elif lowered == "?":
                hint = await service.hint(table_id, YOU)
                write("  " + t(lang, "Hint: {hint}", hint=say(lang, hint)))
            elif lowered in HELP_WORDS:
                write(help_text(lang))
            elif lowered in SCORES_WORDS:
                _write_scores(view, write, lang)
            elif me.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
                if not text.strip().lstrip("-").isdigit():
                    raise TableError("{text!r} is not a bid: answer with a number ('help' says "
                                     "what else you can type).", text=text)
                await service.bid(table_id, YOU, int(text), state.hand_number)
            elif me.phase is Phase.PLAYING and me.legal_declarations:
                joker = await _joker_play(keyboard, me, text, write, level, lang)
                if joker is not None:
                    await _submit(service, table_id, me, joker)
            elif me.phase is Phase.PLAYING:
                await service.play(table_id, YOU, _typed_card(text), state.hand_number)
            elif me.phase is Phase.TRUMP_CHOICE:
                await service.choose_trump(table_id, YOU, _typed_suit(text), state.hand_number)
            elif me.phase is Phase.DISCARD:
                cards = [_typed_card(word) for word in text.replace(",", " ").split()]
                await service.discard(table_id, YOU, cards, state.hand_number)
        except TableError as err:
            write(f"  {err.text(lang)}")


async def _quit(
    service: TableService,
    table_id: int,
    keyboard: Keyboard,
    write: Callable[[str], None],
    args: argparse.Namespace,
    lang: Lang = DEFAULT_LANG,
) -> int | None:
    """Ask before quitting, saying what becomes of the game; the exit status, or None to go on.

    A kept game can be stopped (the same command resumes it) or ended for good (the same
    command then opens a new table); a game that is not kept can only be ended."""
    kept = kept_in(args)
    if kept is not None:
        write("  " + t(lang, "y: stop here; the game stays in {kept} and the same command goes "
                             "on where you stopped.", kept=kept))
        write("  " + t(lang, "end: end this game for good; the same command then opens a new "
                             "table."))
        question = t(lang, "Quit? (y, end, or n to go on): ")
    else:
        question = t(lang, "Quit? The game is not kept (play with --database FILE to keep one). "
                           "(y to end it, n to go on): ")
    answer = await _ask(keyboard, question, write, args.level, lang)
    if answer is None:
        return None  # end of input: the computer plays on for you, as said
    answer = answer.lower()
    if kept is not None and answer in YES:
        write(stopped_line(args, lang))
        return 0
    if answer in YES or (kept is not None and answer in END_WORDS):
        await service.end(table_id, YOU)
        write(t(lang, "The same command now opens a new table in {kept}.", kept=kept)
              if kept is not None else t(lang, "Nothing was kept."))
        return 0
    write("  " + t(lang, "Going on."))
    return None


async def _joker_play(
    keyboard: Keyboard, me: PlayerView, text: str, write: Callable[[str], None], level: str,
    lang: Lang = DEFAULT_LANG,
) -> Play | None:
    """A card typed where a joker may be played: "JKH high trump" in one go, or the card and
    then its declaration at a second prompt. None when the input ran out."""
    words = text.split()
    for cut in range(len(words), 0, -1):
        try:
            card = Card.parse(" ".join(words[:cut]))
        except ValueError:
            continue
        rest = " ".join(words[cut:])
        break
    else:
        raise TableError("{text!r} is not a card: write it like 10H, QS or JK.", text=text)
    held = _held(me, card)
    options = me.declarations_for(held)
    if not options:
        if rest:
            raise TableError("The {card} is not declared: play it as it is.", card=held)
        return Play(held)
    if not rest:
        said = ", ".join(declaration_words(lang, option, me.trump_suit) for option in options)
        question = t(lang, "Declare the {card} ({options}): ", card=card_word(lang, held),
                     options=said)
        answer = await _ask(keyboard, question, write, level, lang)
        if answer is None:
            return None
        rest = answer
    try:
        declaration = Declaration.parse(rest, me.trump_suit)
    except ValueError as err:
        raise refused(err) from None
    return Play(held, declaration)


def _held(me: PlayerView, card: Card) -> Card:
    """The card of yours that `card` names: "JK" or "joker" is the joker you may play, whichever
    kind it is (High, Low, Super...), so long as that leaves no doubt which."""
    if card in me.legal_cards or not card.special:
        return card
    alike = [c for c in me.legal_cards if c.kind == card.kind]
    if not alike and card.kind == "joker":
        alike = [c for c in me.legal_cards if c.special and "joker" in c.kind]
    kinds = {c.kind for c in alike}
    if len(kinds) > 1:
        codes = " or ".join(sorted({c.code for c in alike}))
        raise TableError("You hold more than one joker: say which, {codes}.", codes=codes)
    return alike[0] if alike else card
def _typed_card(text: str) -> Card:
    """A card as typed ("10h", "TH", "10♥"); TableError in words when it is none."""
    try:
        return read_card(text)
    except ValueError as err:
        raise refused(err) from None


def _typed_suit(text: str) -> Suit:
    """A suit as typed (a letter, a name or a symbol); TableError in words when it is none."""
    try:
        return Suit.parse(text)
    except ValueError as err:
        raise refused(err) from None


def _is_suit(text: str) -> bool:
    try:
        Suit.parse(text)
    except ValueError:
        return False
    return True


def _write_scores(view: TableView, write: Callable[[str], None], lang: Lang) -> None:
    state = view.state
    if state is None or not state.scoresheet:
        write(t(lang, "No hand has been scored yet."))
        return
    for record in state.scoresheet:
        for line in scoresheet_lines(view, record, lang):
            write(line)


async def _submit(service: TableService, table_id: int, me: PlayerView, move: Move) -> None:
    """A computer's move for your seat, as the value it chose (never re-read as text)."""
    await service.act(table_id, YOU, move, Guard.of(me))


def _prompt(me: PlayerView, lang: Lang = DEFAULT_LANG) -> str:
    if me.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        legal = me.legal_bids
        hook = me.hook_bid
        most = max(legal) if legal else 0
        if hook is not None and hook not in legal:
            return t(lang, "Your bid (0-{most}, not {hook}): ", most=most, hook=hook)
        return t(lang, "Your bid (0-{most}): ", most=most)
    if me.phase is Phase.PLAYING:
        if me.legal_declarations:
            return t(lang, "Your card (a joker with its declaration, like {example}): ",
                     example=_joker_example(me))
        return t(lang, "Your card: ")
    if me.phase is Phase.TRUMP_CHOICE:
        return t(lang, "Name trump (C, D, H or S): ")
    return t(lang, "Discard {count} cards (e.g. 2C 3D): ", count=me.discards_needed)


def _joker_example(me: PlayerView) -> str:
    """A joker play you may make now, written as the prompt accepts it ("JKH high trump ♠")."""
    card, options = me.legal_declarations[0]
    trump_high = [o for o in options if o.suit is not None and o.suit == me.trump_suit and o.high]
    option = (trump_high or list(options))[0]
    return f"{card.code} {option.text(me.trump_suit)}"


def _move_text(move: Move, lang: Lang = DEFAULT_LANG) -> str:
    """A computer's move as you would type it."""
    if isinstance(move, Bid):
        return str(move.tricks)
    if isinstance(move, Play):
        if move.declaration is not None:
            said = move.declaration
            if said.suit is None:
                suit = ""
            elif lang == DEFAULT_LANG:
                suit = " " + said.suit.singular
            else:
                suit = " " + tc(lang, "suit", said.suit.label)
            high = t(lang, "high") if said.high else t(lang, "low")
            return f"{move.card.code} {high}{suit}"
        return str(move.card)
    if isinstance(move, NameTrump):
        return move.suit.letter
    return " ".join(str(card) for card in move.cards)


async def _ask(
    keyboard: Keyboard, prompt: str, write: Callable[[str], None], level: str,
    lang: Lang = DEFAULT_LANG,
) -> str | None:
    try:
        sys.stdout.write(prompt)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    text = await keyboard.line()
    if text is None:
        write("")
        write(t(lang, "(Ctrl-D, end of input: the {level} computer plays your seat to the end "
                      "of the game)", level=level))
    elif not sys.stdin.isatty():
        write(text)  # echo piped answers so the transcript reads like a session
    return text


def _print(line: str) -> None:
    try:
        print(line, flush=True)
    except BrokenPipeError:
        _silence_stdout()


def _silence_stdout() -> None:
    # The reader went away (`| head`): write the rest nowhere, as the Python docs advise.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


__all__ = ["build_parser", "main", "play", "run_bot"]

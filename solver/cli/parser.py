"""The `klaverjas` command line: the argparse parser of every subcommand, and the option
helpers they share (a deal and rules, a position, worlds and seed, workers and table size).

The parser only reads the command line into values; `solver.cli.commands` does the work.
"""
from __future__ import annotations

import argparse
import sys
from typing import (TYPE_CHECKING, Any, Callable, List, NoReturn, Optional, Sequence, Tuple,
                    TypeVar, Union)

from .._version import __version__
from ..analysis import ON_ALL_PASS, PROCEDURES
from ..analysis.verdicts import WORLDS_BATCH, WORLDS_MOST
from ..model.worlds import BELIEFS, MOST_WORLDS
from ..engine.search import MOST_TABLE_MB
from ..errors import SolverError, quote, whole_number
from ..model.cards import NOTATIONS, Card, Seat, Suit, Team, parse_cards
from ..model.scoring import OBJECTIVES
from .output import printable

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXAMPLE_DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"

# Upper bounds for the numbers that size a run, so that a slip of the keyboard is a clear error
# rather than a command that grows in memory for hours. Each is far above what any use needs.
MOST_WORKERS = 256
MOST_DEALS = 10 ** 9
MOST_DEALS_PER_SHARD = 100_000
MOST_ARENA_DEALS = 10 ** 7

COMMAND_NAMES = ("solve", "table", "analyse", "bid", "view", "report", "labels", "train",
                 "arena", "serve")


Parsed = TypeVar("Parsed")
# What build_parser hands the functions that add a subcommand: makes its parser.
Command = Callable[..., argparse.ArgumentParser]


class UsageError(Exception):
    """A problem with the command line itself, reported in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:     # one line, status 2, no usage dump
        raise UsageError(f"{message} (see {self.prog} --help)")

    def _print_message(self, message: str, file: Optional[SupportsWrite[str]] = None) -> None:
        # Help and version as the stream can encode them: a sign an ASCII terminal lacks comes
        # out escaped, not as a traceback.
        stream = file or sys.stderr
        super()._print_message(printable(message, stream) if message else message, stream)

    def parse_known_args(self, args: Optional[Sequence[str]] = None,  # type: ignore[override]
                         namespace: Optional[argparse.Namespace] = None
                         ) -> Tuple[argparse.Namespace, List[str]]:
        # Cards, suits and bids are read once the whole command line is, in its --notation.
        parsed, rest = super().parse_known_args(args, namespace)
        notation = getattr(parsed, "notation", None) or "en"
        for name, value in vars(parsed).items():
            if isinstance(value, InNotation):
                setattr(parsed, name, value.read(notation, self))
        return parsed, rest


class InNotation:
    """An option's text, read in the card notation (--notation) after the command line is."""

    def __init__(self, option: str, parse: Callable[[str, str], Any], text: str) -> None:
        self.option, self.parse, self.text = option, parse, text

    def read(self, notation: str, parser: argparse.ArgumentParser) -> Any:
        try:
            return self.parse(self.text, notation)
        except (SolverError, argparse.ArgumentTypeError) as err:
            parser.error(f"argument {self.option}: {err}")


def in_notation(option: str, parse: Callable[[str, str], Any]) -> Callable[[str], InNotation]:
    """An argparse `type` for an option written in the card notation: `parse(text, notation)`
    runs once --notation is known."""
    def convert(text: str) -> InNotation:
        return InNotation(option, parse, text)
    convert.__name__ = parse.__name__
    return convert


def parsed_by(parse: Callable[[str], Parsed]) -> Callable[[str], Parsed]:
    """An argparse `type` from one of the model's parsers, keeping its message."""
    def convert(text: str) -> Parsed:
        try:
            return parse(text)
        except SolverError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    convert.__name__ = parse.__qualname__
    return convert


def whole(option: str, least: int, most: Optional[int] = None) -> Callable[[str], int]:
    """An argparse `type` for a whole number from `least` to `most`, checked by
    `errors.whole_number`, whose message names `option`."""
    def convert(text: str) -> int:
        try:
            value: object = int(text)
        except ValueError:
            value = text
        try:
            return whole_number(option, value, least, most)
        except SolverError as err:
            # Raised past argparse, which would put "argument --x:" before the option's name.
            raise UsageError(str(err)) from None
    convert.__name__ = "whole number"
    return convert


def whole_or_auto(option: str, least: int, most: Optional[int] = None
                  ) -> Callable[[str], Union[int, str]]:
    """An argparse `type` for a whole number from `least` to `most`, or "auto"."""
    number = whole(option, least, most)

    def convert(text: str) -> Union[int, str]:
        if text == "auto":
            return text
        if not text.strip().lstrip("+-").isdigit():
            allowed = f"from {least} to {most}" if most is not None else f"of at least {least}"
            raise UsageError(f"{option} must be a whole number {allowed} or auto, "
                             f"got {quote(text)}")
        return number(text)     # a number out of range: the whole number's own message
    convert.__name__ = "whole number or auto"
    return convert


def bid(text: str, notation: str = "en") -> Tuple[Seat, Suit]:
    """The recorded bid, "N H": the seat and the trump it chose."""
    parts = text.replace(",", " ").split()
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{quote(text)}: give the seat and the trump, e.g. --bid 'N H'")
    try:
        return Seat.parse(parts[0]), Suit.parse(parts[1], notation)
    except SolverError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


seat, team = parsed_by(Seat.parse), parsed_by(Team.parse)


def suit(option: str) -> Callable[[str], InNotation]:
    return in_notation(option, Suit.parse)


def played(text: str, notation: str = "en") -> List[Card]:
    return parse_cards(text, notation)


NOTATIONS_HELP = ("en (suits C D H S, ranks 7 8 9 T J Q K A) or nl, the Dutch one (suits K R H "
                  "S, ranks 7 8 9 10 B V H A; cards suit first, so HH is the king of hearts) "
                  "(default: en)")

RULES_HELP = ("amsterdam (the default), rotterdam, inline JSON of options "
              "('{\"roem\": \"none\"}'), or a JSON file of them")


SINGLE_DUMMY_HELP = (
    "judge every card single dummy too, over this many worlds its player could not tell from "
    f"the real one, up to {MOST_WORLDS:,} (default: 0, double dummy only); or auto: "
    f"{WORLDS_BATCH} at a time until each verdict is decided, at most {WORLDS_MOST}")


# -- options shared by several subcommands -----------------------------------------------------

def deal_or_record(p: argparse.ArgumentParser, record_gives: str) -> None:
    """A deal, or a game record whose `record_gives` are the defaults; the rules over it."""
    p.add_argument("deal", help=f'the deal ("N:..."), or a game record in JSON whose '
                                f'{record_gives} are the defaults: a file, inline, or - for '
                                f'stdin')
    p.add_argument("--rules", default=None,
                   help=RULES_HELP.replace("amsterdam (the default)", "amsterdam") + " (default: "
                        "the record's, else amsterdam)")
    round_of_many(p)


def record_and_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a game record in JSON: a file, inline, or - for stdin")
    p.add_argument("--rules", default=None, help=RULES_HELP.replace(
        "amsterdam (the default)", "override the record's rules, keeping its game (contract, ledig's "
        "options, players, dummy_open, multiplier) where they do not name it (default: the record's): "
        "amsterdam"))
    dummy(p, record=True)
    round_of_many(p)


def round_of_many(p: argparse.ArgumentParser) -> None:
    """--round: which record of a JSON Lines file a subcommand that takes one round reads."""
    p.add_argument("--round", type=whole("--round", 1), default=None,
                   help="the round to take from a JSON Lines file of records, one a line: 1 "
                        "for the first (default: the file's only record; analyse reads every "
                        "round of a .jsonl file)")


def record_contract(p: argparse.ArgumentParser) -> None:
    """--contract and --bidder over a record's own."""
    contract(p, "judge the round as this contract, trump or ledig (ledig: the bidder "
                "undertakes to take no trick; costs are then in tricks) (default: the record's)",
             "the seat that bid ledig, over the record's (needed with --contract ledig when "
             "the record names none) (default: the record's)")


def card_notation(p: argparse.ArgumentParser, what: str, record: bool = False) -> None:
    """--notation: the card notation of `what` (what the subcommand reads and prints in it);
    for a subcommand that reads a `record`, by default the record's own."""
    notations = (NOTATIONS_HELP.replace("(default: en)", "(default: the record's own, en "
                                                         "when it names none)")
                 if record else NOTATIONS_HELP)
    p.add_argument("--notation", default=None if record else "en", choices=NOTATIONS,
                   help=f"the card notation of {what}: {notations}")


def position(p: argparse.ArgumentParser) -> None:
    """The round's trump, leader and playing team (or ledig's bidder), and the cards played
    so far: each given, or a record's."""
    # --trump, --leader and --playing are checked once the deal or record and the contract are
    # known: a record names them, and ledig needs neither trump nor playing team.
    p.add_argument("--trump", default=None, type=suit("--trump"),
                   help="trump suit: C, D, H or S (required with a deal, but not in ledig; "
                        "default: the record's)")
    p.add_argument("--leader", default=None, type=seat,
                   help="the seat that led trick 1: N, E, S or W (required with a deal; "
                        "default: the record's)")
    p.add_argument("--playing", default=None, type=team,
                   help="the playing team: NS or EW (required with a deal, but not in ledig, "
                        "where the bidder's team plays; default: the record's)")
    p.add_argument("--played", default=None, type=in_notation("--played", played),
                   help='cards already played, e.g. "DA D7 D8" (default: none)')
    p.add_argument("--after", default=None, type=whole("--after", 0, 32), metavar="N",
                   help="with a record: the position after its first N cards played, 0 for "
                        "the start of the round (default: 0)")
    contract(p, bidder_help=BIDDER_HELP.replace("--contract ledig; default: none",
                                                "--contract ledig and a deal; default: the "
                                                "record's"))
    dummy(p, help_text=DUMMY_HELP + " (required there with a deal; default: the record's)")


CONTRACTS = ("trump", "ledig")


CONTRACT_HELP = ("trump, or ledig: the bidder undertakes to take no trick (values are then "
                 "minus the tricks the bidder takes); ledig's options ledig_trump and "
                 "ledig_bonus go in --rules (default: the rules' contract, trump)")
BIDDER_HELP = ("the seat that bid ledig: N, E, S or W (required with --contract ledig; "
               "default: none)")


def contract(p: argparse.ArgumentParser, contract_help: str = CONTRACT_HELP,
             bidder_help: Optional[str] = BIDDER_HELP) -> None:
    """--contract (over the rules' own) and, unless `bidder_help` is None, ledig's --bidder."""
    p.add_argument("--contract", default=None, choices=CONTRACTS, help=contract_help)
    if bidder_help is not None:
        p.add_argument("--bidder", default=None, type=seat, help=bidder_help)


DUMMY_HELP = ("the silent partner's seat at a table of three (--rules '{\"players\": 3}'): "
              "N, E, S or W, a seat of the playing team")


def dummy(p: argparse.ArgumentParser, record: bool = False, help_text: Optional[str] = None) -> None:
    """--dummy: the dummy's seat of a three-player round (docs/rules.md)."""
    p.add_argument("--dummy", type=seat, default=None,
                   help=help_text or DUMMY_HELP + (" (default: the record's)" if record else
                                                   " (required there; default: none)"))


def worlds_and_seed(p: argparse.ArgumentParser, help_text: str, least: int = 0, default: int = 0,
                    auto: bool = False) -> None:
    """--worlds (with `auto`, also "auto") and --seed."""
    kind = (whole_or_auto("--worlds", least, MOST_WORLDS) if auto
            else whole("--worlds", least, MOST_WORLDS))
    p.add_argument("--worlds", type=kind, default=default, help=help_text)
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="the worlds' seed (default: 0)")


def belief(p: argparse.ArgumentParser) -> None:
    """--belief: how the single-dummy worlds are drawn."""
    p.add_argument("--belief", default="uniform", choices=BELIEFS,
                   help="how the worlds are drawn: uniform (every world the player cannot rule "
                        "out alike) or play (in proportion to how likely the other players' "
                        "cards so far were in each; docs/guides/beliefs.md) (default: uniform)")


def table_size(p: argparse.ArgumentParser, note: str = "") -> None:
    p.add_argument("--table-mb", type=whole("--table-mb", 1, MOST_TABLE_MB), default=None,
                   help="the search's transposition table in megabytes; more helps the "
                        f"heaviest positions{note} (default: 2)")


def workers_and_table_size(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=whole("--workers", 1, MOST_WORKERS), default=None,
                   help=f"threads that solve positions at once, one solver and table each, up "
                        f"to {MOST_WORKERS} (default: all cores)")
    # The analyses take a table size only with a Solver given, which they then use alone.
    table_size(p, ". With it, one solver does the double-dummy work, on one thread")


# -- the parser --------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="klaverjas", description="Exact double-dummy analysis of Klaverjas.",
                     formatter_class=argparse.RawDescriptionHelpFormatter,
                     epilog=f'example:\n  klaverjas solve "{EXAMPLE_DEAL}" --trump S --leader S --playing EW')
    parser.add_argument("--version", action="version", version=f"klaverjas {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(COMMAND_NAMES) + "}",
                                parser_class=_Parser)

    def command(name: str, help_text: str, example: str,
                json_output: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text,
                           epilog=f"example:\n  {example}",
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if json_output:
            p.add_argument("--json", action="store_true",
                           help="print machine-readable JSON (default: readable text)")
        return p

    p = command("solve", "solve a position double dummy",
                f'klaverjas solve "{EXAMPLE_DEAL}" --trump S --leader S --playing EW --played "HA HT"')
    deal_or_record(p, "deal, trump, leader, playing team and rules")
    position(p)
    p.add_argument("--objective", default="points", choices=OBJECTIVES,
                   help="what to solve: points, score or make (default: points)")
    p.add_argument("--moves", action="store_true",
                   help="print the value of every legal card for the team of the player to "
                        "move, its best card first; with --json, for the playing team, as "
                        "solve_moves gives them (default: the value and one line, for the "
                        "playing team)")
    table_size(p)
    card_notation(p, "the deal, trump and cards given, and of everything printed")

    p = command("table", "points for every trump and leader (ledig: every bidder and leader)",
                f'klaverjas table "{EXAMPLE_DEAL}" --rules rotterdam')
    deal_or_record(p, "deal and rules")
    contract(p, bidder_help=None)
    workers_and_table_size(p)
    card_notation(p, "the deal given and the deal printed (the table itself has no cards)")

    p = command("analyse", "judge every card of a recorded round",
                "klaverjas analyse examples/game.json")
    record_and_rules(p)
    record_contract(p)
    worlds_and_seed(p, SINGLE_DUMMY_HELP, auto=True)
    belief(p)
    workers_and_table_size(p)
    card_notation(p, "a record that names none, and of everything printed", record=True)

    p = command("bid", "check every seat and trump under a bidding procedure",
                f'klaverjas bid "{EXAMPLE_DEAL}" --dealer W --procedure draaikaart --turned H --bid "N H"')
    p.add_argument("deal", help='the deal ("N:..."), or a game record in JSON whose deal, '
                                'dealer, rules and bid are checked: a file, inline, or - for stdin')
    p.add_argument("--rules", default=None,
                   help=RULES_HELP.replace("amsterdam (the default)", "amsterdam") + " (default: "
                        "the record's, else amsterdam)")
    round_of_many(p)
    dummy(p, help_text=DUMMY_HELP + " (default: the record's)")
    contract(p, "with ledig, also whether each seat could have bid ledig and taken no trick, "
                "beside the trump bids (default: the rules' contract, trump)", bidder_help=None)
    p.add_argument("--dealer", default=None, type=seat,
                   help="the dealer's seat (required with a deal; default: the record's)")
    p.add_argument("--procedure", default="draaikaart", choices=PROCEDURES, metavar="PROCEDURE",
                   help=f"how trump is chosen: {', '.join(PROCEDURES)} (default: draaikaart)")
    p.add_argument("--turned", default=None, type=suit("--turned"),
                   help="the turned suit, needed by draaikaart (default: none)")
    p.add_argument("--on-all-pass", default="turned_forced", choices=ON_ALL_PASS,
                   metavar="WHEN", help=f"draaikaart when all pass: {', '.join(ON_ALL_PASS)} "
                                        "(default: turned_forced)")
    p.add_argument("--chooser-leads", action="store_true",
                   help="the chooser leads trick 1 (default: the record's, else left of the "
                        "dealer leads)")
    p.add_argument("--bid", default=None, type=in_notation("--bid", bid),
                   help='the recorded bid to judge under the procedure, seat and trump: "N H"; '
                        'one it does not allow is reported as not allowed (default: the '
                        "record's trump, chosen by a seat of its playing team; none with a deal)")
    worlds_and_seed(p, "also each option's chance of making it from the seat's own hand, over "
                       f"this many deals of the other cards, up to {MOST_WORLDS:,} (default: 0, "
                       "double dummy only)")
    workers_and_table_size(p)
    card_notation(p, "the deal, suits and cards given (the output stays in en)")

    p = command("view", "single dummy: each legal card over the worlds the player to move "
                "cannot tell apart",
                f'klaverjas view "{EXAMPLE_DEAL}" --trump S --leader S --playing EW --played "SK" '
                f'--worlds 64')
    deal_or_record(p, "deal, trump, leader, playing team and rules")
    position(p)
    p.add_argument("--seat", type=seat, default=None,
                   help="whose view: must be the player to move, or at a table of three or two "
                        "the seat of the person who plays that hand (default: the player to "
                        "move)")
    p.add_argument("--objective", default="points", choices=OBJECTIVES,
                   help="what to average: points, score or make (default: points)")
    worlds_and_seed(p, f"how many worlds to sample, from 1 to {MOST_WORLDS:,} (default: 64)",
                    least=1, default=64)
    belief(p)
    workers_and_table_size(p)
    card_notation(p, "the deal, suits and cards given (the output stays in en)")

    p = command("report", "an interactive HTML page of a recorded round",
                "klaverjas report examples/game.json -o deal.html", json_output=False)
    record_and_rules(p)
    record_contract(p)
    p.add_argument("-o", "--output", default=None,
                   help="the HTML file to write (default: the record's name with .html, or "
                        "report.html)")
    worlds_and_seed(p, SINGLE_DUMMY_HELP, auto=True)
    belief(p)
    workers_and_table_size(p)
    card_notation(p, "a record that names none, and of the page: its cards, suits and "
                     "labels (nl: in Dutch)", record=True)

    p = command("labels", "training labels: positions with the exact value of every legal card",
                "klaverjas labels --deals 1000 --seed 7 --positions trick-starts --out labels/",
                json_output=False)
    p.add_argument("--out", default=None,
                   help="the output folder, required unless --verify (default: none); a rerun "
                        "resumes it")
    p.add_argument("--verify", metavar="DIR", default=None,
                   help="check the labels folder DIR against its manifest instead: name each "
                        "shard that is not as its run wrote it, exit status 1 if any "
                        "(default: none)")
    p.add_argument("--deals", type=whole("--deals", 1, MOST_DEALS), default=1000,
                   help=f"how many deals, up to {MOST_DEALS:,} (default: 1000)")
    p.add_argument("--seed", type=whole("--seed", 0), default=0,
                   help="the stream of deals, trumps and play (default: 0)")
    p.add_argument("--rules", default="amsterdam", help=RULES_HELP)
    # Labels options are checked by LabelConfig: solver.labels (and NumPy) load only when used.
    p.add_argument("--positions", default="trick-starts",
                   help="root (the first card), trick-starts (every lead) or all (every card) "
                        "(default: trick-starts)")
    p.add_argument("--play", default="optimal",
                   help="how the round goes on between labelled positions: optimal, random or "
                        "mixed:P, optimal with probability P (default: optimal)")
    p.add_argument("--skip-forced", action="store_true",
                   help="leave out positions with one legal card (default: keep them)")
    p.add_argument("--objective", action="append", default=[],
                   help="add a column of make or score values; repeat for both (default: points only)")
    p.add_argument("--trump", type=suit("--trump"), default=None,
                   help="fix the trump suit (default: drawn per deal)")
    p.add_argument("--leader", type=seat, default=None, help="fix the leader (default: drawn per deal)")
    p.add_argument("--playing", type=team, default=None,
                   help="fix the playing team (default: drawn per deal; in ledig the bidder's)")
    dummy(p, help_text="at a table of three (--rules '{\"players\": 3}'), fix the dummy's "
                       "seat, and with it the playing team (default: a seat of the playing "
                       "team, drawn per deal)")
    contract(p, bidder_help="fix ledig's bidder (default: drawn per deal under --contract "
                            "ledig, from the team of --dummy when it is fixed)")
    p.add_argument("--format", default="parquet",
                   help="parquet (needs pyarrow) or npz (default: parquet)")
    p.add_argument("--deals-per-shard", type=whole("--deals-per-shard", 1, MOST_DEALS_PER_SHARD),
                   default=1000, help=f"deals in each output file, up to {MOST_DEALS_PER_SHARD:,} "
                                      f"(default: 1000)")
    p.add_argument("--workers", type=whole("--workers", 1, MOST_WORKERS), default=None,
                   help=f"worker processes, one solver each, up to {MOST_WORKERS} (default: all "
                        f"cores)")
    p.add_argument("--scheduler", default=None,
                   help="run on a Dask cluster: the scheduler's address, tcp://host:8786 "
                        "(default: local processes)")
    p.add_argument("--worlds", type=whole("--worlds", 0, MOST_WORLDS), default=0,
                   help="also write sd_values: each card's mean over this many worlds the seat "
                        f"to move cannot tell apart, up to {MOST_WORLDS:,} (default: 0, none)")
    belief(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: show it)")

    train_command(command)
    arena_command(command)
    serve_command(command)
    return parser


def train_command(command: Command) -> None:
    """`klaverjas train`: a card network from a labels folder, with PyTorch (the [train] extra)."""
    p = command("train", "train a card network from labels with sd_values, to play as "
                         "learned:FILE (needs PyTorch: the [train] extra)",
                "klaverjas train --labels labels/ --out mine.npz --epochs 10 --seed 1",
                json_output=False)
    p.add_argument("--labels", required=True, metavar="DIR", action="append",
                   help="a labels folder written with --worlds N, so that it has sd_values; "
                        "repeat it to learn from several folders of the same rules (required)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the network file to write (.npz) (required)")
    p.add_argument("--hidden", type=whole("--hidden", 1, 4096), default=512,
                   help="units in each hidden layer, up to 4,096 (default: 512)")
    p.add_argument("--layers", type=whole("--layers", 1, 8), default=2,
                   help="hidden layers, up to 8 (default: 2)")
    p.add_argument("--epochs", type=whole("--epochs", 1, 10_000), default=20,
                   help="passes over the rows; the one best on the held-out deals is kept "
                        "(default: 20)")
    p.add_argument("--seed", type=whole("--seed", 0, 2 ** 63 - 1), default=0,
                   help="the initial weights, the shuffles and the suit renamings (default: 0)")
    p.add_argument("--workers", type=whole("--workers", 1, MOST_WORKERS), default=1,
                   help="processes encoding the rows; PyTorch fits on one thread, so the same "
                        "labels and seed give the same network for any number (default: 1)")
    p.add_argument("--storage", choices=("float32", "float16"), default="float32",
                   help="how the weights are stored: float16 halves the file (default: float32)")
    p.add_argument("--quiet", action="store_true",
                   help="no line per epoch on standard error (default: show them)")


ARENA_BOTS_HELP = ("random, rule, dd (sees every hand), pimc:N (N worlds a move; pimc:N@S "
                   "at most S seconds a move; pimc:N~M fewer worlds once the choice is clear "
                   "to within M points; pimc:N+play the worlds drawn under the play belief), "
                   "alphamu:M:W (alpha-mu search, M own moves ahead over W worlds in the last "
                   "tricks), learned (the network shipped in the package), "
                   "learned:PATH (a network of klaverjas train), policy:PATH "
                   "(a model of examples/train_policy.py), openspiel:ismcts[:N] (N simulations "
                   "a card) or module:Class (a Bot class of your own, module importable)")


def arena_command(command: Command) -> None:
    """`klaverjas arena`: two bots over the same deals, each played twice, teams swapped."""
    p = command("arena", "a duplicate match of two bots, every card judged double dummy",
                "klaverjas arena --team-a pimc:32 --team-b rule --deals 400 --seed 1")
    p.add_argument("--team-a", required=True, help=f"team a's bot: {ARENA_BOTS_HELP} (required)")
    p.add_argument("--team-b", required=True, help="team b's bot, the same choices (required)")
    p.add_argument("--deals", type=whole("--deals", 1, MOST_ARENA_DEALS), default=100,
                   help=f"deals, each played at two tables, up to {MOST_ARENA_DEALS:,} "
                        f"(default: 100)")
    p.add_argument("--seed", type=whole("--seed", 0, 2 ** 64 - 1), default=0,
                   help="the deals (as klaverjas labels --seed draws them) and the bots' "
                        "seeds (default: 0)")
    p.add_argument("--rules", default="amsterdam", help=RULES_HELP)
    p.add_argument("--workers", type=whole("--workers", 1, MOST_WORKERS), default=None,
                   help=f"worker processes playing deals at once, up to {MOST_WORKERS}; the "
                        f"result is the same for any number (default: all cores)")
    # The default is play_arena's (solver.arena.run.SD_WORLDS; a test keeps them equal).
    p.add_argument("--sd-worlds", type=whole("--sd-worlds", 0, MOST_WORLDS), default=8,
                   help="also judge every card single dummy over this many worlds its player "
                        f"could not tell from the real one, up to {MOST_WORLDS:,}; about 1 s "
                        f"of a core a deal at 8; 0 for double dummy only (default: 8)")
    p.add_argument("--report", default=None,
                   help="also write the arena's HTML page (charts) to this file (default: none)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: show it)")


def serve_command(command: Command) -> None:
    """`klaverjas serve`: the analysis board in the browser, served on this machine."""
    p = command("serve", "the analysis board: a local web page to enter, replay and explore deals",
                "klaverjas serve --open", json_output=False)
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on; another than this machine's own (127.0.0.1, "
                        "::1, localhost) lets other machines use the board (default: 127.0.0.1)")
    p.add_argument("--port", type=whole("--port", 0, 65535), default=8765,
                   help="the port; 0 picks a free one (default: 8765)")
    p.add_argument("--open", action="store_true",
                   help="open the board in the web browser once it listens (default: print its "
                        "address only)")

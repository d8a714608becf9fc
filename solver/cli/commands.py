"""The `klaverjas` subcommands and their parser: solve a deal, print a DD table, analyse a
played round, check a bid. `solver.cli` runs them and turns every failure into one line.

Every subcommand takes --json for stable machine-readable output (the `to_dict()` of the
matching Python result).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from .._version import __version__
from ..analysis import ON_ALL_PASS, PROCEDURES, analyse_bidding, analyse_play, analyse_view, solve_table
from ..model.cards import Seat, Suit, Team, parse_cards
from ..model.deal import Deal
from ..errors import RulesError, SolverError, quote, shorten
from ..model.record import GameRecord
from ..model.rules import RULE_PRESETS, Rules, load_rules
from ..model.scoring import OBJECTIVES
from ..engine.search import Solver

EXAMPLE_DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"


class UsageError(Exception):
    """A problem with the command line itself, reported in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):            # one line, status 2, no usage dump
        raise UsageError(f"{message} (see {self.prog} --help)")


def _parsed_by(parse):
    """An argparse `type` from one of the model's parsers, keeping its message."""
    def convert(text):
        try:
            return parse(text)
        except SolverError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    convert.__name__ = parse.__qualname__
    return convert


def _looks_like_a_deal(text: str) -> bool:
    return text[1:2] == ":" or text.count(".") >= 8


def _looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def read_text(source: str, inline) -> str:
    """What `source` names: standard input for '-', an existing file, or `source` itself when
    `inline(source)` says it is written out on the command line."""
    if source == "-":
        return sys.stdin.read()
    try:
        is_file = Path(source).is_file()
    except (OSError, ValueError):      # a name too long, or with a NUL byte
        is_file = False
    if is_file:
        try:
            return Path(source).read_text()
        except (OSError, UnicodeDecodeError) as err:
            raise UsageError(f"cannot read {shorten(source)}: {err}") from None
    if inline(source):
        return source
    raise UsageError(f"cannot read {shorten(source)}: no such file")


def read_deal(source: str) -> Deal:
    return Deal.from_pbn(read_text(source, _looks_like_a_deal).strip())


def read_record(args) -> GameRecord:
    """The record named by `args.record`, with `--rules` in place of its own when given."""
    record = GameRecord.from_json(read_text(args.record, _looks_like_json))
    if args.rules:
        record = dataclasses.replace(record, rules=read_rules(args.rules))
    return record


def read_rules(value: str) -> Rules:
    """A preset name, inline JSON of options, or a JSON file of them."""
    if value.lower() in RULE_PRESETS:
        return load_rules(value)
    try:
        text = read_text(value, _looks_like_json)
    except UsageError:
        raise RulesError(f"--rules {quote(value)}: not amsterdam, rotterdam, inline JSON or a "
                         f"readable JSON file") from None
    try:
        return load_rules(json.loads(text))
    except json.JSONDecodeError as err:
        raise RulesError(f"--rules {quote(value)}: not valid JSON: {err}") from None
    except RecursionError:
        raise RulesError(f"--rules {quote(value)}: nested too deeply") from None


def _tricks(cards, already_in_trick: int = 0) -> str:
    """Cards grouped by trick; the first group completes the trick already on the table."""
    first = (4 - already_in_trick) % 4
    groups = ([cards[:first]] if first else []) + [cards[i:i + 4] for i in range(first, len(cards), 4)]
    return "  ".join(" ".join(c.to_str(True) for c in g) for g in groups)


# -- subcommands -------------------------------------------------------------------------------

def cmd_solve(args) -> str:
    deal, rules = read_deal(args.deal), read_rules(args.rules)
    solver = Solver(rules)
    played = args.played
    if args.moves:
        values = solver.solve_moves(deal, args.trump, args.leader, args.playing, rules, played,
                                    args.objective)
        if args.json:
            return json.dumps({"objective": args.objective,
                               "moves": {str(c): v for c, v in values.items()}})
        game = solver.game(deal, args.trump, args.leader, args.playing, rules, played)
        lines = [f"{game.to_move.name} to play; {args.objective} for {game.playing.name} after each card:"]
        lines += [f"  {c.to_str(True)}  {v:+d}" if not isinstance(v, bool) else f"  {c.to_str(True)}  {v}"
                  for c, v in sorted(values.items(), key=lambda kv: -kv[1])]
        return "\n".join(lines)
    res = solver.solve(deal, args.trump, args.leader, args.playing, rules, played, args.objective)
    if args.json:
        return json.dumps(res.to_dict())
    value = res.value if isinstance(res.value, bool) else f"{res.value:+d}"
    return "\n".join([
        deal.to_text(),
        f"{args.objective} for {args.playing.name}: {value}   totals NS {res.totals['NS']}, "
        f"EW {res.totals['EW']}   ({res.nodes} nodes)",
        "line: " + _tricks(res.line, len(played) % 4)])


def cmd_table(args) -> str:
    table = solve_table(read_deal(args.deal), read_rules(args.rules))
    return json.dumps(table.to_dict()) if args.json else f"{table.deal.to_text()}\n\n{table}"


def cmd_analyse(args) -> str:
    record = read_record(args)
    analysis = analyse_play(record, worlds=args.worlds, seed=args.seed)
    if args.json:
        return json.dumps(analysis.to_dict())
    sd = " sd loss  verdict" if args.worlds else ""
    lines = [f"{'#':>2}  trick seat card  before  after  loss{sd}  best"]
    for s in analysis.steps:
        verdict = f" {s.sd_loss:7.1f}  {s.verdict:<7}" if args.worlds else ""
        lines.append(f"{s.number:>2}  {s.trick:>5} {s.seat.name:>4}  {s.card.to_str(True):<4}"
                     f" {s.value_before:>+6d} {s.value_after:>+6d} {s.loss:>5}{verdict}  "
                     + ("" if not s.loss else " ".join(c.to_str(True) for c in s.best_cards)))
    return "\n".join(lines + ["", analysis.summary()])


def cmd_view(args) -> str:
    deal, rules = read_deal(args.deal), read_rules(args.rules)
    game = Solver(rules).game(deal, args.trump, args.leader, args.playing, rules, args.played)
    view = analyse_view(game, args.seat, worlds=args.worlds, seed=args.seed,
                        objective=args.objective)
    return json.dumps(view.to_dict()) if args.json else str(view)


def cmd_bid(args) -> str:
    if args.procedure == "draaikaart" and args.turned is None:
        raise UsageError("the draaikaart procedure needs the turned suit: give --turned H "
                         "(or C, D, S)")
    analysis = analyse_bidding(read_deal(args.deal), args.dealer, read_rules(args.rules),
                               args.procedure, args.turned, args.on_all_pass,
                               args.chooser_leads, args.bid, worlds=args.worlds, seed=args.seed)
    return json.dumps(analysis.to_dict()) if args.json else str(analysis)


def cmd_report(args) -> str:
    from ..html import render
    record = read_record(args)
    out = Path(args.output) if args.output else (
        Path(Path(args.record).stem + ".html") if not _looks_like_json(args.record)
        and args.record != "-" else Path("report.html"))
    page = render(analyse_play(record), solve_table(record.deal, record.rules),
                  Solver(record.rules).value(record.game(), "score"))
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {shorten(str(out))}: {err.strerror or err}") from None
    return f"wrote {out} ({len(page) // 1024} KB): open it in a browser"


def cmd_labels(args) -> str:
    from .. import labels
    config = labels.LabelConfig(
        deals=args.deals, seed=args.seed, rules=read_rules(args.rules), positions=args.positions,
        play=args.play, skip_forced=args.skip_forced, objectives=tuple(args.objective),
        trump=args.trump, leader=args.leader, playing=args.playing,
        deals_per_shard=args.deals_per_shard, format=args.format, worlds=args.worlds)
    summary = labels.generate(config, args.out, workers=args.workers, scheduler=args.scheduler,
                              progress=not args.quiet,
                              command=" ".join(["klaverjas"] + sys.argv[1:]))
    return f"{summary}; written to {args.out}"


def _whole(least: int):
    def convert(text):
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < least:
            raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number of at least {least}")
        return value
    convert.__name__ = "whole number"
    return convert


def _bid(text: str):
    parts = text.replace(",", " ").split()
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{quote(text)}: give the seat and the trump, e.g. --bid 'N H'")
    try:
        return Seat.parse(parts[0]), Suit.parse(parts[1])
    except SolverError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


# -- the parser ------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="klaverjas", description="Exact double-dummy analysis of Klaverjas.",
                     formatter_class=argparse.RawDescriptionHelpFormatter,
                     epilog=f'example:\n  klaverjas solve "{EXAMPLE_DEAL}" --trump S --leader S --playing EW')
    parser.add_argument("--version", action="version", version=f"klaverjas {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command",
                                metavar="{solve,table,analyse,bid,view,report,labels}",
                                parser_class=_Parser)
    suit, seat, team = _parsed_by(Suit.parse), _parsed_by(Seat.parse), _parsed_by(Team.parse)

    def command(name, help_text, example, func, json_output=True):
        p = sub.add_parser(name, help=help_text, description=help_text,
                           epilog=f"example:\n  {example}",
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(func=func)
        if json_output:
            p.add_argument("--json", action="store_true",
                           help="print machine-readable JSON (default: readable text)")
        return p

    rules_help = ("amsterdam (the default), rotterdam, inline JSON of options "
                  "('{\"roem\": \"none\"}'), or a JSON file of them")

    def deal_and_rules(p):
        p.add_argument("deal", help='the deal ("N:..."), a file holding it, or - for stdin')
        p.add_argument("--rules", default="amsterdam", help=rules_help)

    def position(p):
        """The round's trump, leader and playing team, and the cards played so far."""
        p.add_argument("--trump", required=True, type=suit, help="trump suit: C, D, H or S (required)")
        p.add_argument("--leader", required=True, type=seat,
                       help="the seat that led trick 1: N, E, S or W (required)")
        p.add_argument("--playing", required=True, type=team,
                       help="the playing team: NS or EW (required)")
        p.add_argument("--played", default=[], type=_parsed_by(parse_cards),
                       help='cards already played, e.g. "DA D7 D8" (default: none)')

    def record_and_rules(p):
        p.add_argument("record", help="a game record in JSON: a file, inline, or - for stdin")
        p.add_argument("--rules", default=None, help=rules_help.replace(
            "amsterdam (the default)",
            "override the record's rules (default: the record's): amsterdam"))

    p = command("solve", "solve a position double dummy",
                f'klaverjas solve "{EXAMPLE_DEAL}" --trump S --leader S --playing EW --played "HA HT"',
                cmd_solve)
    deal_and_rules(p)
    position(p)
    p.add_argument("--objective", default="points", choices=OBJECTIVES,
                   help="what to solve: points, score or make (default: points)")
    p.add_argument("--moves", action="store_true",
                   help="print the value of every legal card (default: the value and one line)")

    p = command("table", "points for every trump and leader",
                f'klaverjas table "{EXAMPLE_DEAL}" --rules rotterdam', cmd_table)
    deal_and_rules(p)

    p = command("analyse", "judge every card of a recorded round",
                "klaverjas analyse examples/game.json", cmd_analyse)
    record_and_rules(p)
    worlds_and_seed(p, "judge every card single dummy too, over this many worlds its player "
                       "could not tell from the real one (default: 0, double dummy only)")

    p = command("bid", "check every seat and trump under a bidding procedure",
                f'klaverjas bid "{EXAMPLE_DEAL}" --dealer W --procedure draaikaart --turned H --bid "N H"',
                cmd_bid)
    deal_and_rules(p)
    p.add_argument("--dealer", required=True, type=seat, help="the dealer's seat (required)")
    p.add_argument("--procedure", default="draaikaart", choices=PROCEDURES,
                   help=f"how trump is chosen: {', '.join(PROCEDURES)} (default: draaikaart)")
    p.add_argument("--turned", default=None, type=suit,
                   help="the turned suit, needed by draaikaart (default: none)")
    p.add_argument("--on-all-pass", default="turned_forced", choices=ON_ALL_PASS,
                   help=f"draaikaart when all pass: {', '.join(ON_ALL_PASS)} (default: turned_forced)")
    p.add_argument("--chooser-leads", action="store_true",
                   help="the chooser leads trick 1 (default: left of the dealer leads)")
    p.add_argument("--bid", default=None, type=_bid,
                   help='the recorded bid to judge, seat and trump: "N H" (default: none)')
    worlds_and_seed(p, "also each option's chance of making it from the seat's own hand, over "
                       "this many deals of the other cards (default: 0, double dummy only)")

    p = command("view", "single dummy: each legal card over the worlds the player to move "
                "cannot tell apart",
                f'klaverjas view "{EXAMPLE_DEAL}" --trump S --leader S --playing EW --played "SK" '
                f'--worlds 64', cmd_view)
    deal_and_rules(p)
    position(p)
    p.add_argument("--seat", type=seat, default=None,
                   help="whose view: must be the player to move (default: the player to move)")
    p.add_argument("--objective", default="points", choices=OBJECTIVES,
                   help="what to average: points, score or make (default: points)")
    p.add_argument("--worlds", type=_whole(1), default=64,
                   help="how many worlds to sample (default: 64)")
    p.add_argument("--seed", type=_whole(0), default=0, help="the worlds' seed (default: 0)")

    p = command("report", "an interactive HTML page of a recorded round",
                "klaverjas report examples/game.json -o deal.html", cmd_report, json_output=False)
    record_and_rules(p)
    p.add_argument("-o", "--output", default=None,
                   help="the HTML file to write (default: the record's name with .html, or "
                        "report.html)")

    p = command("labels", "training labels: positions with the exact value of every legal card",
                "klaverjas labels --deals 1000 --seed 7 --positions trick-starts --out labels/",
                cmd_labels, json_output=False)
    p.add_argument("--out", required=True, help="the output folder (required); a rerun resumes it")
    p.add_argument("--deals", type=_whole(1), default=1000, help="how many deals (default: 1000)")
    p.add_argument("--seed", type=_whole(0), default=0,
                   help="the stream of deals, trumps and play (default: 0)")
    p.add_argument("--rules", default="amsterdam", help=rules_help)
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
    p.add_argument("--trump", type=suit, default=None, help="fix the trump suit (default: drawn per deal)")
    p.add_argument("--leader", type=seat, default=None, help="fix the leader (default: drawn per deal)")
    p.add_argument("--playing", type=team, default=None,
                   help="fix the playing team (default: drawn per deal)")
    p.add_argument("--format", default="parquet",
                   help="parquet (needs pyarrow) or npz (default: parquet)")
    p.add_argument("--deals-per-shard", type=_whole(1), default=1000,
                   help="deals in each output file (default: 1000)")
    p.add_argument("--workers", type=_whole(1), default=None,
                   help="worker processes (default: all cores)")
    p.add_argument("--scheduler", default=None,
                   help="run on a Dask cluster: the scheduler's address, tcp://host:8786 "
                        "(default: local processes)")
    p.add_argument("--worlds", type=_whole(0), default=0,
                   help="also write sd_values: each card's mean over this many worlds the seat "
                        "to move cannot tell apart (default: 0, none)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: show it)")
    return parser


def worlds_and_seed(p, help_text):
    p.add_argument("--worlds", type=_whole(0), default=0, help=help_text)
    p.add_argument("--seed", type=_whole(0), default=0, help="the worlds' seed (default: 0)")


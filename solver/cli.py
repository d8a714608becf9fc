"""The `klaverjas` command: solve a deal, print a DD table, analyse a played round, check a bid.

Every subcommand takes --json for stable machine-readable output (the `to_dict()` of the
matching Python result). Errors print one line to stderr and exit with status 2.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import List, Optional

from .analysis import (ON_ALL_PASS, PROCEDURES, RULE_PRESETS, GameRecord, analyse_bidding,
                       analyse_play, load_rules, solve_table)
from .cards import Team, parse_cards
from .deal import Deal
from .errors import RulesError
from .rules import Rules
from .scoring import OBJECTIVES
from .search import Solver

EXAMPLE_DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"


class UsageError(Exception):
    """A problem with the command line itself, reported in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):            # one line, status 2, no usage dump
        raise UsageError(f"{self.prog}: {message} (see --help)")


def read_text(source: str) -> str:
    """A deal or record given inline, as a file path, or as '-' for standard input."""
    if source == "-":
        return sys.stdin.read()
    text = source.strip()
    if text.startswith("{") or (text[:1].upper() in ("N", "E", "S", "W") and text[1:2] == ":"):
        return source      # a JSON record or a deal, given inline
    try:
        return Path(source).read_text()
    except OSError as err:
        raise UsageError(f"cannot read {source}: {err.strerror}") from None


def read_deal(source: str) -> Deal:
    return Deal.from_pbn(read_text(source).strip())


def read_rules(value: str) -> Rules:
    """A preset name or a JSON file of options."""
    if value.lower() in RULE_PRESETS:
        return load_rules(value)
    try:
        text = Path(value).read_text()
    except OSError:
        raise RulesError(f"--rules {value!r}: not amsterdam, rotterdam or a readable JSON file") from None
    try:
        return load_rules(json.loads(text))
    except json.JSONDecodeError as err:
        raise RulesError(f"--rules {value}: not valid JSON: {err}") from None


def _tricks(cards, already_in_trick: int = 0) -> str:
    """Cards grouped by trick; the first group completes the trick already on the table."""
    first = (4 - already_in_trick) % 4
    groups = ([cards[:first]] if first else []) + [cards[i:i + 4] for i in range(first, len(cards), 4)]
    return "  ".join(" ".join(c.to_str(True) for c in g) for g in groups)


# -- subcommands -------------------------------------------------------------------------------

def cmd_solve(args) -> str:
    deal, rules = read_deal(args.deal), read_rules(args.rules)
    solver = Solver(rules)
    played = parse_cards(args.played)
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
    playing = Team.parse(args.playing).name
    return "\n".join([
        deal.to_text(),
        f"{args.objective} for {playing}: {value}   totals NS {res.totals['NS']}, "
        f"EW {res.totals['EW']}   ({res.nodes} nodes)",
        "line: " + _tricks(res.line, len(played) % 4)])


def cmd_table(args) -> str:
    table = solve_table(read_deal(args.deal), read_rules(args.rules))
    return json.dumps(table.to_dict()) if args.json else f"{table.deal.to_text()}\n\n{table}"


def cmd_analyse(args) -> str:
    record = GameRecord.from_json(read_text(args.record))
    if args.rules:
        record = dataclasses.replace(record, rules=read_rules(args.rules))
    analysis = analyse_play(record)
    if args.json:
        return json.dumps(analysis.to_dict())
    lines = [f"{'#':>2}  trick seat card  before  after  loss  best"]
    for s in analysis.steps:
        lines.append(f"{s.number:>2}  {s.trick:>5} {s.seat.name:>4}  {s.card.to_str(True):<4}"
                     f" {s.value_before:>+6d} {s.value_after:>+6d} {s.loss:>5}  "
                     + ("" if not s.loss else " ".join(c.to_str(True) for c in s.best_cards)))
    return "\n".join(lines + ["", analysis.summary()])


def cmd_bid(args) -> str:
    bid = None
    if args.bid:
        parts = args.bid.replace(",", " ").split()
        if len(parts) != 2:
            raise UsageError(f"--bid {args.bid!r}: give the seat and the trump, e.g. --bid 'N H'")
        bid = tuple(parts)
    analysis = analyse_bidding(read_deal(args.deal), args.dealer, read_rules(args.rules),
                               args.procedure, args.turned, args.on_all_pass,
                               args.chooser_leads, bid)
    return json.dumps(analysis.to_dict()) if args.json else str(analysis)


# -- the parser ------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="klaverjas", description="Exact double-dummy analysis of Klaverjas.",
                     formatter_class=argparse.RawDescriptionHelpFormatter,
                     epilog=f'example:\n  klaverjas solve "{EXAMPLE_DEAL}" --trump S --leader S --playing EW')
    sub = parser.add_subparsers(dest="command", metavar="{solve,table,analyse,bid}",
                                parser_class=_Parser)

    def command(name, help_text, example, func):
        p = sub.add_parser(name, help=help_text, description=help_text,
                           epilog=f"example:\n  {example}",
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(func=func)
        p.add_argument("--json", action="store_true", help="machine-readable output")
        return p

    def deal_and_rules(p):
        p.add_argument("deal", help='the deal ("N:..."), a file holding it, or - for stdin')
        p.add_argument("--rules", default="amsterdam",
                       help="amsterdam (default), rotterdam, or a JSON file of options")

    p = command("solve", "solve a position double dummy",
                f'klaverjas solve "{EXAMPLE_DEAL}" --trump S --leader S --playing EW --played "HA HT"',
                cmd_solve)
    deal_and_rules(p)
    p.add_argument("--trump", required=True, help="trump suit: C, D, H or S")
    p.add_argument("--leader", required=True, help="seat that led trick 1: N, E, S or W")
    p.add_argument("--playing", required=True, help="the playing team: NS or EW")
    p.add_argument("--played", default="", help='cards already played, e.g. "DA D7 D8"')
    p.add_argument("--objective", default="points", choices=OBJECTIVES)
    p.add_argument("--moves", action="store_true", help="the value of every legal card")

    p = command("table", "points for every trump and leader",
                f'klaverjas table "{EXAMPLE_DEAL}" --rules rotterdam', cmd_table)
    deal_and_rules(p)

    p = command("analyse", "judge every card of a recorded round",
                "klaverjas analyse examples/game.json", cmd_analyse)
    p.add_argument("record", help="a game record in JSON (a file, or - for stdin)")
    p.add_argument("--rules", default=None, help="override the record's rules")

    p = command("bid", "check every seat and trump under a bidding procedure",
                f'klaverjas bid "{EXAMPLE_DEAL}" --dealer W --procedure draaikaart --turned H --bid "N H"',
                cmd_bid)
    deal_and_rules(p)
    p.add_argument("--dealer", required=True, help="the dealer's seat")
    p.add_argument("--procedure", default="draaikaart", choices=PROCEDURES)
    p.add_argument("--turned", default=None, help="the turned suit (draaikaart)")
    p.add_argument("--on-all-pass", default="turned_forced", choices=ON_ALL_PASS)
    p.add_argument("--chooser-leads", action="store_true", help="the chooser leads trick 1")
    p.add_argument("--bid", default=None, help='the recorded bid, seat and trump: "N H"')
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        print(args.func(args))
        return 0
    except (UsageError, ValueError, OSError) as err:
        print(f"klaverjas: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

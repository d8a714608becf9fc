"""The `klaverjas` subcommands, one function each: compute the result, then present it as text,
or with --json as the `to_dict()` of the matching Python result.

Each takes the parsed arguments (`solver.cli.parser`) and returns what to print.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List

from ..analysis import analyse_bidding, analyse_play, analyse_view, solve_table
from ..engine.moves import MovesResult
from ..engine.search import DEFAULT_TABLE_MB, Solver
from ..errors import shorten
from ..model.cards import Card
from ..model.rules import Rules
from .inputs import looks_like_json, read_deal, read_position, read_record, read_rules
from .output import shown_path
from .parser import MOST_SHARDS, UsageError


def search_options(args, rules: Rules) -> Dict[str, Any]:
    """The `workers` and `solver` arguments of the analyses, from --workers and --table-mb.

    An analysis given a Solver uses it alone, on one thread: --table-mb (a Solver of that
    size) therefore cannot go with more than one worker."""
    if args.table_mb is None:
        return {"workers": args.workers, "solver": None}
    if args.workers is not None and args.workers > 1:
        raise UsageError(f"--table-mb runs the search on one solver, on one thread: it cannot "
                         f"go with --workers {args.workers}; leave one of them out")
    return {"workers": args.workers, "solver": Solver(rules, args.table_mb)}


def _tricks(cards: List[Card], already_in_trick: int = 0) -> str:
    """Cards grouped by trick; the first group completes the trick already on the table."""
    first = (4 - already_in_trick) % 4
    groups = ([cards[:first]] if first else []) + [cards[i:i + 4] for i in range(first, len(cards), 4)]
    return "  ".join(" ".join(c.to_str(True) for c in g) for g in groups)


def _signed(value) -> str:
    return str(value) if isinstance(value, bool) else f"{value:+d}"


# -- the subcommands ---------------------------------------------------------------------------

def cmd_solve(args) -> str:
    game = read_position(args)
    solver = Solver(game.rules, args.table_mb or DEFAULT_TABLE_MB)
    if args.moves:
        moves = MovesResult(args.objective, solver.move_values(game, args.objective),
                            list(game.played), game.to_move, game.playing)
        if args.json:
            return json.dumps(moves.to_dict())
        lines = [f"{moves.to_move.name} to play; {moves.objective} for {moves.playing.name} "
                 f"after each card:"]
        lines += [f"  {card.to_str(True)}  {_signed(value)}"
                  for card, value in sorted(moves.values.items(), key=lambda kv: -kv[1])]
        return "\n".join(lines)
    result = solver.solve(game.deal, game.trump, game.leader, game.playing, game.rules,
                          game.played, args.objective)
    if args.json:
        return json.dumps(result.to_dict())
    return "\n".join([
        game.deal.to_text(),
        f"{args.objective} for {game.playing.name}: {_signed(result.value)}   totals NS "
        f"{result.totals['NS']}, EW {result.totals['EW']}   ({result.nodes} nodes)",
        "line: " + _tricks(result.line, len(game.played) % 4)])


def cmd_table(args) -> str:
    deal, rules = read_deal(args.deal), read_rules(args.rules)
    table = solve_table(deal, rules, **search_options(args, rules))
    return json.dumps(table.to_dict()) if args.json else f"{table.deal.to_text()}\n\n{table}"


def cmd_analyse(args) -> str:
    record = read_record(args.record, args.rules)
    analysis = analyse_play(record, worlds=args.worlds, seed=args.seed,
                            **search_options(args, record.rules))
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
    game = read_position(args)
    view = analyse_view(game, args.seat, worlds=args.worlds, seed=args.seed,
                        objective=args.objective, **search_options(args, game.rules))
    return json.dumps(view.to_dict()) if args.json else str(view)


def cmd_bid(args) -> str:
    # The procedure, and the turned suit draaikaart needs, are checked by analyse_bidding.
    deal, rules = read_deal(args.deal), read_rules(args.rules)
    analysis = analyse_bidding(deal, args.dealer, rules, args.procedure, args.turned,
                               args.on_all_pass, args.chooser_leads, args.bid,
                               worlds=args.worlds, seed=args.seed,
                               **search_options(args, rules))
    return json.dumps(analysis.to_dict()) if args.json else str(analysis)


def cmd_report(args) -> str:
    from ..html.report import render
    record = read_record(args.record, args.rules)
    out = Path(args.output) if args.output else (
        Path(Path(args.record).stem + ".html") if not looks_like_json(args.record)
        and args.record != "-" else Path("report.html"))
    options = search_options(args, record.rules)
    analysis = analyse_play(record, **options)
    table = solve_table(record.deal, record.rules, **options)
    dd_score = (options["solver"] or Solver(record.rules)).value(record.game(), "score")
    page = render(analysis, table, dd_score)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {shorten(shown_path(out))}: {err.strerror or err}") from None
    return f"wrote {shown_path(out)} ({len(page) // 1024} KB): open it in a browser"


def cmd_labels(args) -> str:
    from .. import labels
    shards = -(-args.deals // args.deals_per_shard)
    if shards > MOST_SHARDS:
        raise UsageError(f"--deals {args.deals} in shards of --deals-per-shard "
                         f"{args.deals_per_shard} makes {shards} files, more than {MOST_SHARDS}: "
                         f"give a larger --deals-per-shard")
    config = labels.LabelConfig(
        deals=args.deals, seed=args.seed, rules=read_rules(args.rules), positions=args.positions,
        play=args.play, skip_forced=args.skip_forced, objectives=tuple(args.objective),
        trump=args.trump, leader=args.leader, playing=args.playing,
        deals_per_shard=args.deals_per_shard, format=args.format, worlds=args.worlds)
    # No progress bar where standard error is closed: there is nowhere to draw it.
    summary = labels.generate(config, args.out, workers=args.workers, scheduler=args.scheduler,
                              progress=not args.quiet and sys.stderr is not None,
                              command=" ".join(["klaverjas"] + [shown_path(a) for a in getattr(args, "argv", sys.argv[1:])]))
    return f"{summary}; written to {shown_path(args.out)}"


# The subcommands whose work is a file: what they print is only a note of it.
WRITE_FILES = ("report", "labels")

COMMANDS: Dict[str, Callable[[Any], str]] = {
    "solve": cmd_solve, "table": cmd_table, "analyse": cmd_analyse, "bid": cmd_bid,
    "view": cmd_view, "report": cmd_report, "labels": cmd_labels}


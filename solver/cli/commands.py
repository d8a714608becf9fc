"""The `klaverjas` subcommands, one function each: compute the result, then present it as text,
or with --json as the `to_dict()` of the matching Python result.

Each takes the parsed arguments (`solver.cli.parser`) and returns what to print.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..analysis import analyse_bidding, analyse_play, analyse_view, solve_table
from ..analysis.bidding import BidAnalysis, LedigBid
from ..analysis.play import PlayAnalysis, PlayStep
from ..engine.moves import MovesResult
from ..engine.search import DEFAULT_TABLE_MB, Solver
from ..errors import RecordError, SolverError, shorten
from ..model.cards import Card, Seat, Suit, Team
from ..model.deal import Deal
from ..model.files import write_whole
from ..model.record import GameRecord
from ..model.rules import Rules
from .inputs import (looks_like_a_deal, looks_like_json, read_deal_or_record, read_position,
                     read_record, read_rules, read_text, record_in, record_rules,
                     record_with_overrides, rules_over_record, with_contract)
from .output import named, printable, shown_path
from .parser import UsageError
from .serve import cmd_serve


def search_options(args: argparse.Namespace, rules: Rules) -> Dict[str, Any]:
    """The `workers` and `solver` arguments of the analyses, from --workers and --table-mb.

    An analysis given a Solver uses it alone, on one thread: --table-mb (a Solver of that
    size) therefore cannot go with more than one worker."""
    if args.table_mb is None:
        return {"workers": args.workers, "solver": None}
    if args.workers is not None and args.workers > 1:
        raise UsageError(f"--table-mb runs the search on one solver, on one thread: it cannot "
                         f"go with --workers {args.workers}; leave one of them out")
    return {"workers": args.workers, "solver": Solver(rules, args.table_mb)}


def _tricks(cards: List[Card], already_in_trick: int = 0, notation: str = "en") -> str:
    """Cards grouped by trick; the first group completes the trick already on the table."""
    first = (4 - already_in_trick) % 4
    groups = ([cards[:first]] if first else []) + [cards[i:i + 4] for i in range(first, len(cards), 4)]
    return "  ".join(" ".join(c.to_str(True, notation) for c in g) for g in groups)


def _signed(value: int) -> str:
    return str(value) if isinstance(value, bool) else f"{value:+d}"


# The attribute of the parsed arguments that names the card notation of what a command
# prints (default "en"): a stream without suit signs then shows that notation's suit letters.
PRINTED_IN = "printed_in"


def printed_in(args: Any, notation: str) -> str:
    """Note that the command of `args` prints its cards in `notation`, and return it."""
    setattr(args, PRINTED_IN, notation)
    return notation


# -- the subcommands ---------------------------------------------------------------------------

def cmd_solve(args: argparse.Namespace) -> str:
    # The value and line are for the playing team; --moves text for the team to move
    # (MovesResult.to_text), its JSON for the playing team, as solve_moves gives them.
    game = read_position(args)
    printed_in(args, args.notation)
    solver = Solver(game.rules, args.table_mb or DEFAULT_TABLE_MB)
    if args.moves:
        moves = MovesResult(args.objective, solver.move_values(game, args.objective),
                            list(game.played), game.to_move, game.playing)
        return json.dumps(moves.to_dict()) if args.json else moves.to_text(args.notation)
    result = solver.solve(game.deal, game.trump, game.leader, game.playing, game.rules,
                          game.played, args.objective, bidder=game.bidder, dummy=game.dummy)
    if args.json:
        return json.dumps(result.to_dict())
    # Ledig counts only the bidder's tricks: the value says it all, no card points.
    totals = (f"   totals NS {result.totals[Team.NS]}, EW {result.totals[Team.EW]}"
              if game.bidder is None else "")
    ledig = f" ({game.bidder.name} bids ledig)" if game.bidder is not None else ""
    return "\n".join([
        game.deal.to_text(notation=args.notation),
        f"{args.objective} for {game.playing.name}{ledig}: {_signed(result.value)}{totals}   "
        f"({result.nodes} nodes)",
        "line: " + _tricks(result.line, len(game.played) % 4, args.notation)])


def cmd_table(args: argparse.Namespace) -> str:
    # A record gives its deal and rules (--rules over them as solve takes them): every trump
    # and leader is tabled anyway.
    deal, record = read_deal_or_record(args)
    rules = with_contract(args, read_rules("amsterdam" if args.rules is None else args.rules)
                          if record is None else rules_over_record(record, *record_rules(args)))
    printed_in(args, args.notation)
    table = solve_table(deal, rules, **search_options(args, rules))
    return json.dumps(table.to_dict()) if args.json else \
        f"{table.deal.to_text(notation=args.notation)}\n\n{table}"


def check_belief(args: argparse.Namespace) -> None:
    """A belief other than uniform draws single-dummy worlds: without --worlds it would weigh
    nothing, so it is refused rather than ignored."""
    if args.belief != "uniform" and not args.worlds:
        raise UsageError(f"argument --belief: the {args.belief} belief weighs the single-dummy "
                         f"worlds, and there are none: give --worlds N (or auto) too")


def cmd_analyse(args: argparse.Namespace) -> str:
    check_belief(args)
    if args.record.lower().endswith(".jsonl") and args.round is None:
        return cmd_analyse_many(args)
    record, notation = the_record(args, "analyse")
    analysis = analyse_play(record, worlds=args.worlds, seed=args.seed, belief=args.belief,
                            **search_options(args, record.rules))
    if args.json:
        return json.dumps(analysis.to_dict())
    return "\n".join(_play_table(analysis.steps, bool(args.worlds), notation)
                     + _belief_line(args) + ["", analysis.summary(notation, symbols=True)])


def _belief_line(args: argparse.Namespace) -> List[str]:
    """The line that names the belief the single-dummy worlds were drawn under."""
    if not args.worlds:
        return []
    return [f"single dummy over worlds drawn under the {args.belief} belief"]


def the_record(args: argparse.Namespace, command: str) -> Tuple[GameRecord, str]:
    """The record of `args.record` (its --round of a JSON Lines file) under --rules,
    --contract, --bidder and --dummy, and the notation to print it in (--notation, else the
    record's own)."""
    record, notation = read_record(args.record, args.notation, args.round, command,
                                   getattr(args, "dummy", None))
    printed_in(args, notation)
    return record_with_overrides(args, record, *record_rules(args)), notation


def _play_table(steps: List[PlayStep], single_dummy: bool, notation: str) -> List[str]:
    """The analysed cards, one a line, in `notation`. Single dummy, the `best` column names the
    single-dummy best cards, marked (sd), where the verdict is a single-dummy one (mistake,
    minor, uncertain)."""
    def cards(these: List[Card]) -> str:
        return " ".join(c.to_str(True, notation) for c in these)

    width = max([len(s.sd_loss_text) for s in steps] + [len("sd loss [95%]")])
    sd = f"  {'sd loss [95%]':<{width}}  verdict  " if single_dummy else ""
    lines = [f"{'#':>2}  trick seat card  before  after  loss{sd}  best"]
    for s in steps:
        best = cards(s.best_cards) if s.loss else ""
        verdict = ""
        if single_dummy:
            verdict = f"  {s.sd_loss_text:<{width}}  {s.verdict:<9}"
            if s.verdict in ("mistake", "minor", "uncertain") and s.card not in s.sd_best_cards:
                best = cards(s.sd_best_cards) + " (sd)"
        lines.append(f"{s.number:>2}  {s.trick:>5} {s.seat.name:>4}  "
                     f"{s.card.to_str(True, notation):<4}"
                     f" {s.value_before:>+6d} {s.value_after:>+6d} {s.loss:>5}{verdict}  {best}")
    return lines


def cmd_analyse_many(args: argparse.Namespace) -> str:
    """`analyse games.jsonl`: every record of a JSON Lines file judged, one line per round, and
    a summary over all: each seat's mean double-dummy loss per round, and the mistakes in each
    trick (with --worlds, the single-dummy mistakes: a loss given what the player could know)."""
    try:
        records = GameRecord.load_many(args.record, args.notation or "en")
    except OSError as err:
        raise UsageError(f"cannot read {named(args.record)}: {err.strerror or err}") from None
    if not records:
        raise RecordError(f"{named(args.record)} holds no game records (one per line)")
    rules, names = record_rules(args)
    analyses = []
    for number, record in enumerate(records, start=1):
        try:
            record = record_with_overrides(args, record, rules, names)
            analyses.append(analyse_play(record, worlds=args.worlds, seed=args.seed,
                                         belief=args.belief,
                                         **search_options(args, record.rules)))
        except (UsageError, SolverError) as err:
            # Same error, its message prefixed with the round: its place among the records.
            err.args = (f"{named(args.record)}, round {number}: {err}",) + err.args[1:]
            raise
    summary = _many_summary(analyses, bool(args.worlds))
    if args.json:
        return json.dumps({"rounds": [a.to_dict() for a in analyses], "summary": summary})
    lines = ["round  playing  trump  leader  start  lost NS  lost EW  mistakes  result"]
    for number, a in enumerate(analyses, start=1):
        r, lost, actual = a.record, a.losses(), a.actual
        failed = "nat" if r.bidder is None else "ledig failed"
        result = ("unfinished" if actual.scores is None else
                  f"NS {actual.scores['NS']}, EW {actual.scores['EW']} ("
                  f"{'revoke' if a.illegal else 'made' if actual.made else failed})")
        # A ledig round: the bidder's seat and "-" for no trump.
        playing = r.playing.name if r.bidder is None else f"{r.bidder.name} ledig"
        trump = r.trump.symbol if r.trump is not None else "-"
        lines.append(f"{number:>5}  {playing:>7}  {trump:>5}  "
                     f"{r.leader.name:>6}  {a.start_value:>+5d}  {lost['NS']:>7}  "
                     f"{lost['EW']:>7}  {len(_mistakes(a, bool(args.worlds))):>8}  {result}")
    loss = ", ".join(f"{seat} {value:.1f}" for seat, value in summary["mean_loss"].items())
    per_trick = ", ".join(f"{trick}: {count}"
                          for trick, count in summary["mistakes_per_trick"].items())
    kind = ("a loss given what the player could know" if args.worlds
            else "cards that lost points double dummy")
    revokes = f", {summary['revokes']} revokes" if summary["revokes"] else ""
    lines += ["", f"{summary['rounds']} rounds, {summary['cards']} cards judged{revokes}."]
    if "mean_loss_ledig" in summary:
        ledig = ", ".join(f"{seat} {value:.1f}"
                          for seat, value in summary["mean_loss_ledig"].items())
        lines += [f"Mean double-dummy loss per trump round, in points: {loss}.",
                  f"Mean double-dummy loss per ledig round, in tricks: {ledig}."]
    else:
        lines.append(f"Mean double-dummy loss per round: {loss}.")
    lines.append(f"Mistakes per trick ({kind}): {per_trick}.")
    return "\n".join(lines + _belief_line(args))


def _mistakes(analysis: PlayAnalysis, single_dummy: bool) -> List[PlayStep]:
    """The cards of an analysis counted as mistakes: a loss double dummy, or with worlds a
    loss given what the player could know."""
    if single_dummy:
        return [s for s in analysis.steps if s.verdict == "mistake"]
    return [s for s in analysis.steps if s.loss]


def _many_summary(analyses: List[PlayAnalysis], single_dummy: bool) -> Dict[str, Any]:
    """Over all rounds: each seat's mean double-dummy loss per round, the mistakes in each
    trick, and the counts of rounds, cards judged and revokes."""
    per_trick = {str(trick): 0 for trick in range(1, 9)}
    for analysis in analyses:
        for step in _mistakes(analysis, single_dummy):
            per_trick[str(step.trick)] += 1
    # Ledig losses are in tricks, trump losses in points: rounds of both are averaged apart.
    ledig = [a for a in analyses if a.record.bidder is not None]
    trump = [a for a in analyses if a.record.bidder is None]
    mixed = bool(ledig and trump)
    summary = {"rounds": len(analyses), "cards": sum(len(a.steps) for a in analyses),
               "revokes": sum(a.illegal is not None for a in analyses),
               "mean_loss": _mean_loss(trump if mixed else analyses),
               "mistakes": "single dummy" if single_dummy else "double dummy",
               "mistakes_per_trick": per_trick}
    if mixed:
        summary["mean_loss_ledig"] = _mean_loss(ledig)
    return summary


def _mean_loss(analyses: List[PlayAnalysis]) -> Dict[str, float]:
    """Each seat's mean double-dummy loss per round."""
    lost = {seat.name: 0 for seat in Seat}
    for analysis in analyses:
        for step in analysis.steps:
            lost[step.seat.name] += step.loss
    return {seat: total / len(analyses) for seat, total in lost.items()}


def cmd_view(args: argparse.Namespace) -> str:
    game = read_position(args)
    view = analyse_view(game, args.seat, worlds=args.worlds, seed=args.seed,
                        objective=args.objective, belief=args.belief, **search_options(args, game.rules))
    return json.dumps(view.to_dict()) if args.json else str(view)


def cmd_bid(args: argparse.Namespace) -> str:
    # The procedure and --on-all-pass are checked by the parser, --turned here, the rest by
    # analyse_bidding.
    text = read_text(args.deal, lambda t: looks_like_a_deal(t) or looks_like_json(t))
    record: Optional[GameRecord] = None
    if looks_like_json(text):
        # A record: its deal, dealer, rules and chooser_leads, each unless the option is given.
        record, _ = record_in(text, args.deal, args.notation, args.round, "bid", args.dummy)
        deal, dealer = record.deal, args.dealer if args.dealer is not None else record.dealer
        rules = read_rules(args.rules) if args.rules else record.rules
        chooser_leads = args.chooser_leads or record.chooser_leads
    else:
        deal, dealer = Deal.from_pbn(text.strip(), args.notation or "en"), args.dealer
        rules, chooser_leads = read_rules(args.rules or "amsterdam"), args.chooser_leads
    if dealer is None:
        raise UsageError("the following arguments are required: --dealer"
                         + (" (the record names no dealer)" if record is not None else ""))
    rules = with_contract(args, rules)
    if args.procedure == "draaikaart" and args.turned is None:
        raise UsageError("--procedure draaikaart (the default) needs --turned: the suit turned "
                         "up (--turned H, say); or name another --procedure")
    analysis = analyse_bidding(deal, dealer, rules, args.procedure, args.turned,
                               args.on_all_pass, chooser_leads, args.bid,
                               worlds=args.worlds, seed=args.seed,
                               **search_options(args, rules))
    if record is not None and args.bid is None and record.trump is not None \
            and record.bidder is None:      # the record's own bid (a ledig round has none)
        analysis = dataclasses.replace(analysis, bid=(_chooser(record, record.trump, analysis),
                                                      record.trump))
    if args.json:
        return json.dumps(analysis.to_dict())
    if record is not None and args.bid is None and record.bidder is not None and analysis.ledig:
        return f"{analysis}\n{_ledig_verdict(analysis.ledig_bid(record.bidder, record.trump))}"
    return str(analysis)


def _ledig_verdict(bid: LedigBid) -> str:
    """The verdict on a recorded ledig bid: whether its bidder takes no trick double dummy."""
    trump = f" with trump {bid.trump.name}" if bid.trump is not None else ""
    tricks = -bid.value
    if bid.makeable:
        return f"{bid.seat.name} bid ledig{trump}: makeable, takes no trick double dummy"
    return (f"{bid.seat.name} bid ledig{trump}: not makeable, takes {tricks} "
            f"trick{'s' if tricks != 1 else ''} double dummy")


def _chooser(record: GameRecord, trump: Suit, analysis: BidAnalysis) -> Seat:
    """The seat of the playing team that chose the record's trump: the leader when the
    chooser leads, the dummy's partner at a table of three; else the seat the procedure lets
    choose it (N or E when both may: their options are the same game)."""
    if record.chooser_leads:
        return record.leader
    if record.dummy is not None:
        return record.dummy.partner
    seats = [s for s in Seat if s.team == record.playing]
    allowed = [s for s in seats if analysis.option(s, trump).allowed]
    return (allowed or seats)[0]


def cmd_report(args: argparse.Namespace) -> str:
    from ..html import render
    out = Path(args.output) if args.output else (
        Path(Path(args.record).stem + ".html") if not looks_like_json(args.record)
        and args.record != "-" else Path("report.html"))
    # Checked before the work: the page must not take the place of the record it shows.
    check_output_file("-o" if args.output else None, out, args.record)
    check_belief(args)
    record, notation = the_record(args, "report")
    options = search_options(args, record.rules)
    analysis = analyse_play(record, worlds=args.worlds, seed=args.seed, belief=args.belief,
                            **options)
    table = solve_table(record.deal, record.rules, **options)
    dd_score = (options["solver"] or Solver(record.rules)).value(record.game(), "score")
    page = render(analysis, table, dd_score, notation=notation)
    write_file(out, page)
    return written_note(out, page)


def written_note(out: Path, page: str) -> str:
    """What a command that wrote the page `page` to `out` prints. When `out` is standard
    output itself (`-o /dev/stdout`), the note goes to standard error instead, so that the
    stream holds the page alone."""
    note = f"wrote {named(out, short=False)} ({len(page) // 1024} KB): open it in a browser"
    if not _is_stdout(out):
        return note
    if sys.stderr is not None:
        print(printable(note, sys.stderr), file=sys.stderr)
    return ""


def _is_stdout(out: Path) -> bool:
    """Whether `out` is the file standard output writes to (through links too)."""
    try:
        written, stdout = os.stat(out), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):   # no descriptor (a captured stream)
        return False
    return (written.st_dev, written.st_ino) == (stdout.st_dev, stdout.st_ino)


def check_output_file(option: Optional[str], out: Path, source: Optional[str] = None) -> None:
    """Refuse, before any work, a file that cannot be written as a page: a directory, one in
    a folder that does not exist, or the file `source` names (the input, which writing would
    destroy). `option` names where the file was given (None: the default name)."""
    given = f"argument {option}: " if option else ""
    if str(out) in ("", ".") or out.is_dir() or not out.parent.is_dir():
        raise UsageError(f"{given}cannot write {named(out)}: "
                         f"{'no such directory' if not out.parent.is_dir() else 'it is a directory'}")
    if source is not None and source != "-" and _same_file(source, out):
        hint = ("name another file" if option else
                "the page would take its name; name another file with -o")
        raise UsageError(f"{given}{named(out)} is the record this command reads: writing the "
                         f"page there would destroy it; {hint}")


def _same_file(a: str, b: Path) -> bool:
    """Whether `a` and `b` are one file (through links too); False when either is missing."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):       # ValueError: a NUL byte in a name (inline JSON)
        return False


def write_file(out: Path, text: str) -> None:
    """Write `text` to `out` whole or not at all (`write_whole`): a full disk leaves any
    earlier file of that name as it was. The error is raised from the OSError, which the
    command reports with exit status 1, not as bad input."""
    try:
        write_whole(out, text)
    except OSError as err:
        raise UsageError(f"cannot write {named(out)}: {err.strerror or err}") from err


def cmd_labels(args: argparse.Namespace) -> str:
    from .. import labels
    if args.verify is not None:
        report, status = labels.verify_report(args.verify)
        if status:
            print(report)
            raise SystemExit(status)
        return report
    if args.out is None:
        raise UsageError("labels needs --out FOLDER (or --verify FOLDER to check one)")
    config = labels.LabelConfig(
        deals=args.deals, seed=args.seed, rules=with_contract(args, read_rules(args.rules)),
        positions=args.positions, play=args.play, skip_forced=args.skip_forced,
        objectives=tuple(args.objective), trump=args.trump, leader=args.leader,
        playing=args.playing, bidder=args.bidder, dummy=args.dummy,
        deals_per_shard=args.deals_per_shard, format=args.format, worlds=args.worlds,
        belief=args.belief)
    # No progress bar where standard error is closed: there is nowhere to draw it.
    summary = labels.generate(config, args.out, workers=args.workers, scheduler=args.scheduler,
                              progress=not args.quiet and sys.stderr is not None,
                              command=" ".join(["klaverjas"] + [shown_path(a) for a in getattr(args, "argv", sys.argv[1:])]))
    return f"{summary}; written to {named(args.out, short=False)}"


def cmd_train(args: argparse.Namespace) -> str:
    from ..training import TrainingOptions, import_torch, train, training_rows
    out = Path(args.out)
    check_output_file("--out", out)     # said before the work, not after
    import_torch()                      # PyTorch missing: said before the rows are encoded
    rows = training_rows(args.labels, workers=args.workers)
    options = TrainingOptions(hidden=args.hidden, layers=args.layers, epochs=args.epochs,
                              seed=args.seed)
    show = None if args.quiet or sys.stderr is None else \
        (lambda line: print(line, file=sys.stderr, flush=True))
    network = train(rows, options, report=show)
    network.info["command"] = " ".join(
        ["klaverjas"] + [shown_path(a) for a in getattr(args, "argv", sys.argv[1:])])
    network.save(out, storage=args.storage)
    return (f"trained {network!r} on {network.info['rows_learnt']:,} rows (epoch "
            f"{network.info['epoch_kept']} kept: held-out rows lose "
            f"{network.info['held_out_points_lost']:.2f} points a card); written to "
            f"{named(out, short=False)}: play it as learned:{shown_path(out)}")


def cmd_arena(args: argparse.Namespace) -> str:
    from ..arena import make_bot, play_arena
    from ..errors import BotError
    for option, name in (("--team-a", args.team_a), ("--team-b", args.team_b)):
        try:
            make_bot(name)      # a bad name or policy file, named by its option, before any work
        except BotError as err:
            raise UsageError(f"argument {option}: {err}") from None
    if args.report is not None:     # said before the arena runs, not after
        check_output_file("--report", Path(args.report))
    result = play_arena(args.team_a, args.team_b, deals=args.deals, seed=args.seed,
                        rules=read_rules(args.rules), workers=args.workers,
                        sd_worlds=args.sd_worlds,
                        progress=not args.quiet and sys.stderr is not None)
    note = ""
    if args.report is not None:
        out = Path(args.report)
        page = result.to_html()
        write_file(out, page)
        note = written_note(out, page)
        note = "\n" + note if note else ""
    if args.json:
        if note and sys.stderr is not None:
            print(printable(note.strip(), sys.stderr), file=sys.stderr)
        return json.dumps(result.to_dict())
    return str(result) + note


# The subcommands whose work is a file: what they print is only a note of it.
WRITE_FILES = ("report", "labels", "train")

COMMANDS: Dict[str, Callable[[Any], str]] = {
    "solve": cmd_solve, "table": cmd_table, "analyse": cmd_analyse, "bid": cmd_bid,
    "view": cmd_view, "report": cmd_report, "labels": cmd_labels, "train": cmd_train,
    "arena": cmd_arena,
    "serve": cmd_serve}


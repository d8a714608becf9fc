"""The report: one self-contained HTML page of an analysed game (inline CSS, SVG and a little
JS, nothing fetched). It shows what the caller computed and solves nothing itself.

>>> from solver import GameRecord, Solver, analyse_play, solve_table
>>> record = GameRecord.load("examples/game.json")
>>> page = render(analyse_play(record), solve_table(record.deal, record.rules),
...               Solver(record.rules).value(record.game(), "score"))
>>> page.startswith("<!DOCTYPE html>")
True
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

from ..errors import SolverError, quote, whole_number
from ..model.cards import Seat, Suit
from ..model.deal import Deal
from ..model.record import GameRecord
from ..model.rules import Rules
from ..model.scoring import value_for_team
from ..model.players import dummy_open_from, player_of, table_players
from .pieces import (CARD_BACK, asset, bid_tables_html, bid_verdict_html, card_html, chart_svg,
                     compass_html, dd_table_grid, esc, ledig_table_grid, lost_text,
                     players_html, replayed, rules_in_words, seat_labels, shown_order,
                     single_dummy_marks, single_dummy_note,
                     suit_html, tricks_html)

if TYPE_CHECKING:   # pragma: no cover
    from ..analysis import BidAnalysis, DDTable, LedigTable, PlayAnalysis


def render(analysis: "PlayAnalysis", table: "Union[DDTable, LedigTable]", dd_score: int,
           bids: Optional["BidAnalysis"] = None) -> str:
    """The whole report of an analysed game as one HTML page.

    `table` is the DD table of the record's deal and rules (`solve_table`), `dd_score` the
    double-dummy `score` value of the round (`Solver(rules).value(record.game(), "score")`).
    `bids`, the `analyse_bidding` of the round's deal and rules with its bid recorded (a seat
    of the playing team and the trump), judges the bid under that bidding procedure; without
    it the chosen trump is compared with the other three, whatever the procedure allowed.

    A ledig round (the record names its bidder) shows values and losses in tricks, marks the
    bidder's first trick, and takes the `LedigTable` of `solve_table` (no `bids`).
    """
    _check_arguments(analysis, table)
    _check_bids(analysis, bids)
    dd_score = whole_number("dd_score", dd_score)
    r = analysis.record
    dealer = f", dealer {r.dealer}" if r.dealer is not None else ""
    data = json.dumps(replay_data(analysis)).replace("</", "<\\/")
    if r.bidder is not None:
        what = f"{r.bidder} bids ledig"
        heading = what + (f" ({suit_html(r.trump)} {r.trump} trump)" if r.trump is not None
                          else " (no trump)")
    else:
        assert r.trump is not None      # a trump round always has one
        what = f"{r.playing} plays {r.trump.symbol}"
        heading = f"{r.playing} plays {suit_html(r.trump)} ({r.trump})"
    title = f"{what} — klaverjas-solver report"
    replay_hands = "".join(f'<div class="hand {s}{" dummy" if s == r.dummy else ""}"></div>'
                           for s in Seat)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title><style>{asset("report.css")}{asset("page.css")}</style></head>
<body><main class="kj">
<section><h1>{heading}, {r.leader} leads{dealer}</h1>
<p>{esc(rules_in_words(r.rules))}</p>{players_html(r)}{compass_html(r.deal, labels=seat_labels(r), dummy=r.dummy)}</section>
<section id="replay-section"><h2>Replay</h2>
<div class="controls"><button id="prev" type="button">◀ previous</button>
<button id="next" type="button">next ▶</button><span id="step-count"></span></div>
<div id="step-note"></div>
<div id="replay" class="compass">{replay_hands}
<div class="middle"></div></div>
<p>Use the arrow keys too. Under each legal card: its double-dummy value for the side to
play; the card played is green when optimal, red when it lost {analysis.unit}.{dummy_legend(r)}{single_dummy_legend(analysis)}</p></section>
<section><h2>The double-dummy value, card by card</h2>{chart_svg(analysis)}</section>
<section><h2>Tricks</h2>{tricks_html(analysis)}</section>
<section><h2>Result</h2>{result_html(analysis, dd_score)}</section>
<section><h2>{"The ledig table" if r.bidder is not None else "Double-dummy table and the bid"}</h2>{table_section_html(analysis, table, bids)}</section>
</main>
<script type="application/json" id="report-data">{data}</script>
<script>{asset("replay.js")}</script>
</body></html>
"""


def _check_arguments(analysis: Any, table: Any) -> None:
    # The result types live in solver.analysis, which this layer does not import: recognise
    # them by what the page reads from them.
    if not isinstance(getattr(analysis, "record", None), GameRecord) or not hasattr(analysis, "steps"):
        raise SolverError(f"analysis must be a PlayAnalysis (analyse_play(record)), got {quote(analysis)}")
    if not (isinstance(getattr(table, "deal", None), Deal) and isinstance(getattr(table, "rules", None), Rules)
            and callable(getattr(table, "value", None))):
        raise SolverError(f"table must be a DDTable (solve_table(record.deal, record.rules)), "
                          f"got {quote(table)}")
    record = analysis.record
    if (record.bidder is not None) != hasattr(table, "trumps"):     # LedigTable.trumps
        raise SolverError(f"table must be the {'ledig table' if record.bidder is not None else 'DDTable'} of "
                          f"this {'ledig' if record.bidder is not None else 'trump'} round: solve it with "
                          f"solve_table(record.deal, record.rules)")
    if table.deal != record.deal or table.rules != record.rules:
        raise SolverError(f"table is of another deal or other rules than the record: solve it "
                          f"with solve_table(record.deal, record.rules); the record's deal is "
                          f"{record.deal.to_pbn()!r}")


def _check_bids(analysis: "PlayAnalysis", bids: Any) -> None:
    if bids is None:
        return
    if analysis.record.bidder is not None:
        raise SolverError("bids judge a trump bid, and this is a ledig round: leave bids out "
                          "(the page shows the ledig table)")
    if not callable(getattr(bids, "judge_bid", None)):
        raise SolverError(f"bids must be a BidAnalysis (analyse_bidding(record.deal, "
                          f"record.dealer, record.rules, ..., bid=(seat, record.trump))), got "
                          f"{quote(bids)}")
    r = analysis.record
    if bids.deal != r.deal or bids.rules != r.rules or bids.bid is None or \
            bids.bid[1] != r.trump or bids.bid[0].team != r.playing or \
            bids.option(*bids.bid).leader != r.leader:
        bid = f"{bids.bid[0]} {bids.bid[1]}" if bids.bid else "no bid"
        raise SolverError(f"bids must judge this round's bid: a seat of {r.playing} choosing "
                          f"{r.trump} with {r.leader} leading, under the record's deal and "
                          f"rules; got {bid}")


def table_section_html(analysis: "PlayAnalysis", table: Any,
                       bids: Optional["BidAnalysis"]) -> str:
    """The bid judged and the double-dummy table (`table`, a DDTable); for ledig, the ledig
    table (a LedigTable)."""
    r = analysis.record
    if r.bidder is not None:
        return ledig_check_html(analysis, table) + ledig_table_grid(table, (r.bidder, r.trump,
                                                                            r.leader))
    assert r.trump is not None      # a trump round always has one
    return (bid_section_html(analysis, table, bids) + "\n"
            + dd_table_grid(table, r.playing, (r.trump, r.leader)))


def ledig_check_html(analysis: "PlayAnalysis", table: Any) -> str:
    """Whether the bidder could take no trick with this leader, and which seats could."""
    r = analysis.record
    assert r.bidder is not None
    value = table.value(r.bidder, r.leader, r.trump)
    text = (f"{r.bidder} bid ledig with {r.leader} leading: "
            + ("makeable, the bidder takes no trick with best play." if value == 0 else
               f"not makeable: with best play by both sides {r.bidder} takes "
               f"{-value} trick{'s' if value != -1 else ''}."))
    makers = [s.name for s in Seat if table.value(s, r.leader, r.trump) == 0]
    text += (f" With {r.leader} leading, ledig was makeable for "
             f"{', '.join(makers) if makers else 'no seat'}.")
    return f'<p data-ledig-check="1">{text}</p>'


def bid_section_html(analysis: "PlayAnalysis", table: "DDTable",
                     bids: Optional["BidAnalysis"]) -> str:
    """The verdict on the bid under its procedure when `bids` is given, with its table;
    without it, the chosen trump against the other three for the same leader."""
    if bids is None:
        return bid_check_html(analysis, table)
    return bid_verdict_html(bids) + bid_tables_html(bids)


def bid_check_html(analysis: "PlayAnalysis", table: "DDTable") -> str:
    """Whether the chosen trump was makeable, and the best of the four trumps for the same
    leader (no bidding procedure is known here, so none is said to have been allowed)."""
    r = analysis.record
    assert r.trump is not None      # a trump round always has one
    chosen = table.value(r.trump, r.leader, r.playing)
    best = max(Suit, key=lambda s: (table.value(s, r.leader, r.playing), -s))
    text = (f"{r.playing} chose {suit_html(r.trump)} with {r.leader} leading: "
            f"{'makeable' if table.makeable(r.trump, r.leader, r.playing) else 'not makeable'} "
            f"({chosen:+d}).")
    if best != r.trump and table.value(best, r.leader, r.playing) > chosen:
        value = table.value(best, r.leader, r.playing)
        text += (f" Best of the four trumps with {r.leader} leading was {suit_html(best)}: "
                 f"{value:+d}, "
                 f"{'makeable' if table.makeable(best, r.leader, r.playing) else 'not makeable'}.")
    else:
        text += f" That was the best of the four trumps with {r.leader} leading."
    return f'<p data-bid-check="1">{text}</p>'


def result_html(analysis: "PlayAnalysis", dd_score: int) -> str:
    """The totals and scores of the recorded play against the double-dummy value and score."""
    r, a = analysis.record, analysis.actual
    if r.bidder is not None:
        return ledig_result_html(analysis, dd_score)
    playing, defenders = r.playing.name, r.playing.other.name
    lines = [f"Totals: {playing} {a.totals[playing]}, {defenders} {a.totals[defenders]}."]
    if a.scores is not None:
        verdict = "revoke" if analysis.illegal else ("made" if a.made else "nat")
        lines.append(f"Score: {playing} {a.scores[playing]}, {defenders} {a.scores[defenders]} "
                     f"({verdict}).")
    else:
        lines.append(f"Unfinished after {len(analysis.steps)} cards.")
    lines += player_scores_line(analysis)
    for team, won in replayed(analysis).tricks_won().items():
        if won == 8:
            lines.append(f"{team} took all 8 tricks (pit).")
    lines.append(f"Double dummy: {analysis.start_value:+d} points for {playing}, "
                 f"{'makeable' if analysis.makeable else 'not makeable'}; score {dd_score:+d}.")
    if analysis.illegal:
        lines.append(f"Illegal card (verzaken): {esc(analysis.illegal.message)}")
    lost = analysis.losses()
    lines.append("Points given away: " + ", ".join(f"{t} {v}" for t, v in lost.items()) + ".")
    return "".join(f"<p>{line}</p>" for line in lines)


def player_scores_line(analysis: "PlayAnalysis") -> List[str]:
    """Each player's score, at a table of three or two or when the record names the players
    (else [])."""
    scores = analysis.shown_player_scores()
    if not scores:
        return []
    return ['<span data-player-scores="1">Per player: ' + ", ".join(
        f"{esc(p.label)} {score}" for p, score in scores) + ".</span>"]


def dummy_legend(record: GameRecord) -> str:
    """How the replay shows the dummy's hand at a table of three ("" at other tables)."""
    if record.dummy is None:
        return ""
    opens = dummy_open_from(record.rules)
    when = ("open throughout, as the defenders see it from the start" if opens == 0 else
            "face down until the first card is on the table, open from then on, as the "
            "defenders see it" if opens == 1 else
            "face down throughout, as the defenders never see it")
    return (f" The dummy's hand ({record.dummy}) is shown {when}; on its own turn it is open, "
            f"as the chooser who plays it sees it.")


def ledig_result_html(analysis: "PlayAnalysis", dd_score: int) -> str:
    """A ledig round's result: the bidder's tricks and first trick, the scores, and the
    double-dummy value and score; the tricks given away."""
    r, a = analysis.record, analysis.actual
    first = analysis.bidder_first_trick
    lines = [f"Tricks: {', '.join(f'{t} {n}' for t, n in a.totals.items())}; "
             + (f"{r.bidder} took no trick." if first is None else
                f"{r.bidder} took its first trick at trick {first}.")]
    if a.scores is not None:
        verdict = "revoke" if analysis.illegal else ("made" if a.made else "failed")
        lines.append(f"Score: {', '.join(f'{t} {v}' for t, v in a.scores.items())} "
                     f"(ledig {verdict}).")
    else:
        lines.append(f"Unfinished after {len(analysis.steps)} cards.")
    lines += player_scores_line(analysis)
    lines.append(f"Double dummy: {analysis.start_value:+d} for {r.playing} ("
                 + ("the bidder takes no trick" if analysis.makeable else
                    f"{r.bidder} takes {-analysis.start_value}") + f"); score {dd_score:+d}.")
    if analysis.illegal:
        lines.append(f"Illegal card (verzaken): {esc(analysis.illegal.message)}")
    lines.append("Tricks given away: " + ", ".join(f"{t} {v}" for t, v in
                                                   analysis.losses().items()) + ".")
    return "".join(f"<p>{line}</p>" for line in lines)


def single_dummy_legend(analysis: "PlayAnalysis") -> str:
    """What the dashed outlines mean, when the play was judged single dummy too."""
    if not any(s.sd_loss is not None for s in analysis.steps):
        return ""
    worlds = sorted({s.sd_worlds for s in analysis.steps if s.sd_loss is not None})
    counted = (f"{worlds[0]}" if len(worlds) == 1 else f"{worlds[0]} to {worlds[-1]}")
    return (f" Single dummy, over {counted} worlds its player could not tell from the real "
            f"one, the card played is outlined dashed: red for a mistake, orange when unlucky "
            f"(a double-dummy loss, but no mistake), grey when uncertain (more worlds would "
            f"decide); the note gives its expected loss with the 95% interval.")


def played_by(record: GameRecord) -> Dict[Seat, str]:
    """Who plays each hand, as a step's note begins it ("the dummy, played by Anna; "), where
    the table or the record's names make it worth saying ("" otherwise)."""
    players = table_players(record.rules, record.playing, record.dummy, record.players)
    who = {}
    for seat in Seat:
        player = player_of(players, seat)
        name = player.name or player.seat.name
        who[seat] = (f"the dummy, played by {esc(name)}; " if seat == record.dummy else
                     f"{esc(player.name)}; " if player.name else "")
    return who


def replay_data(analysis: "PlayAnalysis") -> Dict[str, Any]:
    """What the replay script needs, with every card's markup rendered here: `cards` each card
    plain, and per step the legal cards of the seat to move with their double-dummy values
    (for that seat's team) and the note above the table."""
    r, bad = analysis.record, analysis.illegal
    # The replay steps through the judged cards and a revoke, where the round ends; the
    # counter (cards on the table) and each note count the same cards.
    total = len(analysis.steps) + (bad is not None)
    who = played_by(r)
    steps = []
    for s in analysis.steps:
        _, sd_class = single_dummy_marks(s)
        played = " ".join(c for c in ("loss" if s.loss else "best", sd_class) if c)
        cards = {str(c): card_html(c, classes=played if c == s.card else "",
                                   value=value_for_team(v, s.seat.team, r.playing))
                 for c, v in s.values.items()}
        sd_note = single_dummy_note(s)
        note = (f"{s.number - 1} of {total} cards played: {s.seat} to play ({who[s.seat]}values for "
                f"{s.seat.team}); played {card_html(s.card, classes=played)} "
                f"{lost_text(s) if s.loss else 'optimal'}"
                + (f"; {esc(sd_note)}" if sd_note else ""))
        step = {"seat": s.seat.name, "cards": cards, "note": note}
        if sd_note:
            step["verdict"] = s.verdict
        steps.append(step)
    marked: Dict[str, str] = {}
    end = f"{total} of {total} cards played: end of the recorded play"
    if bad is not None:
        marked[str(bad.card)] = card_html(bad.card, classes="illegal")
        steps.append({"seat": bad.seat.name, "cards": marked,
                      "note": f"{total - 1} of {total} cards played: {bad.seat} to play; played "
                              f"{marked[str(bad.card)]}, a revoke (verzaken): {esc(bad.message)}"})
        rest = len(r.played) - bad.number
        end = (f"{total} of {total} cards played: the round ends at the revoke (verzaken) of "
               f"{bad.seat}" + (f"; the record's {rest} later cards are not analysed" if rest else ""))
    return {"hands": {seat.name: [str(c) for c in shown_order(r.deal[seat])] for seat in Seat},
            "labels": {seat.name: label for seat, label in seat_labels(r).items()},
            # A three-player round: the dummy's seat, from how many cards on the table the
            # defenders see its hand (null: never), and a card face down.
            "dummy": r.dummy.name if r.dummy is not None else None,
            "dummy_open_from": dummy_open_from(r.rules), "back": CARD_BACK,
            "cards": {str(c): card_html(c) for seat in Seat for c in r.deal[seat]},
            "played": [str(s.card) for s in analysis.steps] + ([str(bad.card)] if bad else []),
            "steps": steps, "marked": marked, "end": end}

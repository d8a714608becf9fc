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
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Union

from ..errors import SolverError, quote, whole_number
from ..model.cards import Seat, Suit
from ..model.deal import Deal
from ..model.record import GameRecord
from ..model.rules import Rules
from ..model.scoring import value_for_team
from ..model.players import dummy_open_from, player_of, table_players
from . import words
from .pieces import (CARD_BACK, asset, bid_tables_html, bid_verdict_html, card_html, chart_svg,
                     compass_html, dd_table_grid, esc, ledig_table_grid, lost_text, tricks_text,
                     players_html, replayed, rules_in_words, seat_labels, shown_order,
                     single_dummy_marks, single_dummy_note,
                     suit_html, tricks_html)

if TYPE_CHECKING:   # pragma: no cover
    from ..analysis import BidAnalysis, DDTable, LedigTable, PlayAnalysis


def render(analysis: "PlayAnalysis", table: "Union[DDTable, LedigTable]", dd_score: int,
           bids: Optional["BidAnalysis"] = None, notation: str = "en") -> str:
    """The whole report of an analysed game as one HTML page.

    `table` is the DD table of the record's deal and rules (`solve_table`), `dd_score` the
    double-dummy `score` value of the round (`Solver(rules).value(record.game(), "score")`).
    `bids`, the `analyse_bidding` of the round's deal and rules with its bid recorded (a seat
    of the playing team and the trump), judges the bid under that bidding procedure; without
    it the chosen trump is compared with the other three, whatever the procedure allowed.

    A ledig round (the record names its bidder) shows values and losses in tricks, marks the
    bidder's first trick, and takes the `LedigTable` of `solve_table` (no `bids`).

    `notation` "nl" shows the cards and suits in the Dutch notation ("♠B", the jack of
    spades) and the page's labels in Dutch (`words`); the longer explanations stay English.
    """
    say = words.say(notation)
    _check_arguments(analysis, table)
    _check_bids(analysis, bids)
    dd_score = whole_number("dd_score", dd_score)
    r = analysis.record
    dealer = ", " + say("dealer {dealer}", dealer=r.dealer) if r.dealer is not None else ""
    data = json.dumps(replay_data(analysis, notation)).replace("</", "<\\/")
    if r.bidder is not None:
        what = say("{bidder} bids ledig", bidder=r.bidder)
        heading = what + " " + (say("({trump} trump)", trump=f"{suit_html(r.trump)} "
                                                            f"{r.trump.letter_in(notation)}")
                                if r.trump is not None else say("(no trump)"))
    else:
        assert r.trump is not None      # a trump round always has one
        what = say("{playing} plays {trump}", playing=r.playing, trump=r.trump.symbol)
        heading = say("{playing} plays {trump}", playing=r.playing,
                      trump=f"{suit_html(r.trump)} ({r.trump.letter_in(notation)})")
    title = f"{what} — {say('klaverjas-solver report')}"
    replay_hands = "".join(f'<div class="hand {s}{" dummy" if s == r.dummy else ""}"></div>'
                           for s in Seat)
    return f"""<!DOCTYPE html>
<html lang="{words.LANGUAGE[notation]}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title><style>{asset("report.css")}{asset("page.css")}</style></head>
<body><main class="kj">
<section><h1>{heading}, {say("{leader} leads", leader=r.leader)}{dealer}</h1>
<p>{esc(rules_in_words(r.rules, notation))}</p>{players_html(r, notation)}{compass_html(r.deal, labels=seat_labels(r), dummy=r.dummy, notation=notation)}</section>
<section id="replay-section"><h2>{say("Replay")}</h2>
<div class="controls"><button id="prev" type="button">{say("◀ previous")}</button>
<button id="next" type="button">{say("next ▶")}</button><span id="step-count"></span></div>
<div id="step-note"></div>
<div id="replay" class="compass">{replay_hands}
<div class="middle"></div></div>
<p>{say("Use the arrow keys too. Under each legal card: its double-dummy value for the side to "
        "play; the card played is green when optimal, red when it lost {unit}.", unit=say(analysis.unit))}{dummy_legend(r, say)}{single_dummy_legend(analysis, say)}</p></section>
<section><h2>{say("The double-dummy value, card by card")}</h2>{chart_svg(analysis, notation)}</section>
<section><h2>{say("Tricks")}</h2>{tricks_html(analysis, notation)}</section>
<section><h2>{say("Result")}</h2>{result_html(analysis, dd_score, notation)}</section>
<section><h2>{say("The ledig table" if r.bidder is not None else "Double-dummy table and the bid")}</h2>{table_section_html(analysis, table, bids, notation)}</section>
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
                       bids: Optional["BidAnalysis"], notation: str = "en") -> str:
    """The bid judged and the double-dummy table (`table`, a DDTable); for ledig, the ledig
    table (a LedigTable). Suits and labels in `notation`."""
    r = analysis.record
    if r.bidder is not None:
        return ledig_check_html(analysis, table, notation) + ledig_table_grid(
            table, (r.bidder, r.trump, r.leader), notation)
    assert r.trump is not None      # a trump round always has one
    return (bid_section_html(analysis, table, bids, notation) + "\n"
            + dd_table_grid(table, r.playing, (r.trump, r.leader), notation))


def ledig_check_html(analysis: "PlayAnalysis", table: Any, notation: str = "en") -> str:
    """Whether the bidder could take no trick with this leader, and which seats could."""
    say = words.say(notation)
    r = analysis.record
    assert r.bidder is not None
    value = table.value(r.bidder, r.leader, r.trump)
    text = say("{bidder} bid ledig with {leader} leading: ", bidder=r.bidder, leader=r.leader) + (
        say("makeable, the bidder takes no trick with best play.") if value == 0 else
        say("not makeable: with best play by both sides {bidder} takes {tricks}.",
            bidder=r.bidder, tricks=tricks_text(-value, notation)))
    makers = [s.name for s in Seat if table.value(s, r.leader, r.trump) == 0]
    text += say(" With {leader} leading, ledig was makeable for {seats}.", leader=r.leader,
                seats=", ".join(makers) if makers else say("no seat"))
    return f'<p data-ledig-check="1">{text}</p>'


def bid_section_html(analysis: "PlayAnalysis", table: "DDTable",
                     bids: Optional["BidAnalysis"], notation: str = "en") -> str:
    """The verdict on the bid under its procedure when `bids` is given, with its table;
    without it, the chosen trump against the other three for the same leader."""
    if bids is None:
        return bid_check_html(analysis, table, notation)
    return bid_verdict_html(bids) + bid_tables_html(bids)


def bid_check_html(analysis: "PlayAnalysis", table: "DDTable", notation: str = "en") -> str:
    """Whether the chosen trump was makeable, and the best of the four trumps for the same
    leader (no bidding procedure is known here, so none is said to have been allowed)."""
    say = words.say(notation)
    r = analysis.record
    assert r.trump is not None      # a trump round always has one

    def makeable(suit: Suit) -> str:
        return say("makeable" if table.makeable(suit, r.leader, r.playing) else "not makeable")

    chosen = table.value(r.trump, r.leader, r.playing)
    best = max(Suit, key=lambda s: (table.value(s, r.leader, r.playing), -s))
    text = say("{playing} chose {trump} with {leader} leading: {makeable} ({value}).",
               playing=r.playing, trump=suit_html(r.trump), leader=r.leader,
               makeable=makeable(r.trump), value=f"{chosen:+d}")
    if best != r.trump and table.value(best, r.leader, r.playing) > chosen:
        text += say(" Best of the four trumps with {leader} leading was {best}: {value}, "
                    "{makeable}.", leader=r.leader, best=suit_html(best),
                    value=f"{table.value(best, r.leader, r.playing):+d}", makeable=makeable(best))
    else:
        text += say(" That was the best of the four trumps with {leader} leading.",
                    leader=r.leader)
    return f'<p data-bid-check="1">{text}</p>'


def result_html(analysis: "PlayAnalysis", dd_score: int, notation: str = "en") -> str:
    """The totals and scores of the recorded play against the double-dummy value and score,
    labelled in `notation`'s language."""
    say = words.say(notation)
    r, a = analysis.record, analysis.actual
    if r.bidder is not None:
        return ledig_result_html(analysis, dd_score, notation)
    playing, defenders = r.playing.name, r.playing.other.name
    lines = [say("Totals: {totals}.", totals=f"{playing} {a.totals[playing]}, {defenders} "
                                              f"{a.totals[defenders]}")]
    if a.scores is not None:
        verdict = "revoke" if analysis.illegal else ("made" if a.made else "nat")
        lines.append(say("Score: {scores} ({verdict}).", verdict=say(verdict),
                         scores=f"{playing} {a.scores[playing]}, {defenders} "
                                f"{a.scores[defenders]}"))
    else:
        lines.append(say("Unfinished after {count} cards.", count=len(analysis.steps)))
    lines += player_scores_line(analysis, notation)
    for team, won in replayed(analysis).tricks_won().items():
        if won == 8:
            lines.append(say("{team} took all 8 tricks (pit).", team=team))
    lines.append(say("Double dummy: {value} points for {playing}, {makeable}; score {score}.",
                     value=f"{analysis.start_value:+d}", playing=playing,
                     makeable=say("makeable" if analysis.makeable else "not makeable"),
                     score=f"{dd_score:+d}"))
    if analysis.illegal:
        lines.append(f"Illegal card (verzaken): {esc(analysis.illegal.message)}")
    lost = analysis.losses()
    lines.append(say("Points given away: {losses}.",
                     losses=", ".join(f"{t} {v}" for t, v in lost.items())))
    return "".join(f"<p>{line}</p>" for line in lines)


def player_scores_line(analysis: "PlayAnalysis", notation: str = "en") -> List[str]:
    """Each player's score, at a table of three or two or when the record names the players
    (else []), in `notation`'s language."""
    scores = analysis.shown_player_scores()
    if not scores:
        return []
    say = words.say(notation)
    return ['<span data-player-scores="1">' + esc(say("Per player: ")) + ", ".join(
        f"{esc(p.label_in(say))} {score}" for p, score in scores) + ".</span>"]


def dummy_legend(record: GameRecord, say: Callable[..., str]) -> str:
    """How the replay shows the dummy's hand at a table of three ("" at other tables)."""
    if record.dummy is None:
        return ""
    opens = dummy_open_from(record.rules)
    when = say("open throughout, as the defenders see it from the start" if opens == 0 else
               "face down until the first card is on the table, open from then on, as the "
               "defenders see it" if opens == 1 else
               "face down throughout, as the defenders never see it")
    return say(" The dummy's hand ({dummy}) is shown {when}; on its own turn it is open, as "
               "the chooser who plays it sees it.", dummy=record.dummy, when=when)


def ledig_result_html(analysis: "PlayAnalysis", dd_score: int, notation: str = "en") -> str:
    """A ledig round's result: the bidder's tricks and first trick, the scores, and the
    double-dummy value and score; the tricks given away."""
    say = words.say(notation)
    r, a = analysis.record, analysis.actual
    first = analysis.bidder_first_trick
    lines = [say("Tricks: {totals}; ", totals=", ".join(f"{t} {n}" for t, n in a.totals.items()))
             + (say("{bidder} took no trick.", bidder=r.bidder) if first is None else
                say("{bidder} took its first trick at trick {first}.", bidder=r.bidder,
                    first=first))]
    if a.scores is not None:
        verdict = "revoke" if analysis.illegal else ("made" if a.made else "failed")
        lines.append(say("Score: {scores} ({verdict}).", verdict="ledig " + say(verdict),
                         scores=", ".join(f"{t} {v}" for t, v in a.scores.items())))
    else:
        lines.append(say("Unfinished after {count} cards.", count=len(analysis.steps)))
    lines += player_scores_line(analysis, notation)
    lines.append(say("Double dummy: {value} for {playing} ({what}); score {score}.",
                     value=f"{analysis.start_value:+d}", playing=r.playing, score=f"{dd_score:+d}",
                     what=say("the bidder takes no trick") if analysis.makeable else
                     say("{bidder} takes {tricks}", bidder=r.bidder,
                         tricks=tricks_text(-analysis.start_value, notation))))
    if analysis.illegal:
        lines.append(f"Illegal card (verzaken): {esc(analysis.illegal.message)}")
    lost = analysis.losses()
    own, other = r.playing.name, r.playing.other.name
    # A team's loss in ledig is tricks the bidder took more (its own team) or fewer (the
    # defenders) than with best play: "lost" alone would read as tricks the team lost. A team
    # that lost nothing is not named.
    parts = ([say("{own} gave the bidder {more} more", own=own,
                  more=tricks_text(lost[own], notation))] if lost[own] else []) + \
        ([say("{other} let the bidder take {fewer} fewer", other=other,
              fewer=tricks_text(lost[other], notation))] if lost[other] else [])
    lines.append(say("Against best play, {losses}.", losses=say(" and ").join(parts)) if parts
                 else say("Against best play, no card cost anything."))
    return "".join(f"<p>{line}</p>" for line in lines)


def single_dummy_legend(analysis: "PlayAnalysis", say: Callable[..., str]) -> str:
    """What the dashed outlines mean, when the play was judged single dummy too."""
    if not any(s.sd_loss is not None for s in analysis.steps):
        return ""
    worlds = sorted({s.sd_worlds for s in analysis.steps if s.sd_loss is not None})
    counted = (f"{worlds[0]}" if len(worlds) == 1 else
               say("{first} to {last}", first=worlds[0], last=worlds[-1]))
    drawn = "" if analysis.belief == "uniform" else \
        say(" (drawn under the {belief} belief)", belief=analysis.belief)
    return say(" Single dummy, over {counted} worlds its player could not tell from the real "
               "one{drawn}, the card played is outlined dashed: red for a mistake, amber for a "
               "small loss (surely worse than the single-dummy best card, by less than a "
               "mistake), orange when unlucky (a double-dummy loss, but as good as the best card "
               "on what the player could know), grey when uncertain (more worlds would decide); "
               "the note gives its expected loss with the 95% interval.", counted=counted,
               drawn=drawn)


def played_by(record: GameRecord, notation: str = "en") -> Dict[Seat, str]:
    """Who plays each hand, as a step's note begins it ("the dummy, played by Anna; "), where
    the table or the record's names make it worth saying ("" otherwise)."""
    players = table_players(record.rules, record.playing, record.dummy, record.players)
    who = {}
    for seat in Seat:
        player = player_of(players, seat)
        name = player.name or player.seat.name
        who[seat] = (words.say(notation)("the dummy, played by {name}; ", name=esc(name))
                     if seat == record.dummy else
                     f"{esc(player.name)}; " if player.name else "")
    return who


def replay_data(analysis: "PlayAnalysis", notation: str = "en") -> Dict[str, Any]:
    """What the replay script needs, with every card's markup rendered here: `cards` each card
    plain, and per step the legal cards of the seat to move with their double-dummy values
    (for that seat's team) and the note above the table, which names the card about to be
    played and what it costs. Cards and labels in `notation`."""
    say = words.say(notation)
    r, bad = analysis.record, analysis.illegal
    # The replay steps through the judged cards and a revoke, where the round ends; the
    # counter (cards on the table) and each note count the same cards.
    total = len(analysis.steps) + (bad is not None)
    who = played_by(r, notation)
    steps = []
    for s in analysis.steps:
        _, sd_class = single_dummy_marks(s)
        played = " ".join(c for c in ("loss" if s.loss else "best", sd_class) if c)
        cards = {str(c): card_html(c, classes=played if c == s.card else "",
                                   value=value_for_team(v, s.seat.team, r.playing),
                                   notation=notation)
                 for c, v in s.values.items()}
        sd_note = single_dummy_note(s, notation)
        card = card_html(s.card, classes=played, notation=notation)
        # Said before the card is on the table: what it is about to cost, in the present.
        next_card = (say("{seat} plays {card} next, which {loses}", seat=s.seat, card=card,
                         loses=lost_text(s, r.bidder, now=True, notation=notation))
                     if s.loss else say("{seat} plays {card} next, optimal", seat=s.seat,
                                        card=card))
        note = (say("{played} of {total} cards played: {seat} to play ({who}values for "
                    "{team}); ", played=s.number - 1, total=total, seat=s.seat,
                    who=who[s.seat], team=s.seat.team)
                + next_card + (f"; {esc(sd_note)}" if sd_note else ""))
        step = {"seat": s.seat.name, "cards": cards, "note": note}
        if sd_note:
            step["verdict"] = s.verdict
        steps.append(step)
    marked: Dict[str, str] = {}
    end = say("{total} of {total} cards played: end of the recorded play", total=total)
    if bad is not None:
        marked[str(bad.card)] = card_html(bad.card, classes="illegal", notation=notation)
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
            "cards": {str(c): card_html(c, notation=notation) for seat in Seat
                      for c in r.deal[seat]},
            "played": [str(s.card) for s in analysis.steps] + ([str(bad.card)] if bad else []),
            "steps": steps, "marked": marked, "end": end}

"""The pieces of the HTML: cards, hands, a deal around the table, the rules in words, the DD
table, the tricks of a recorded play and its chart. The report page and the Jupyter output are
built from these; the style they share is `report.css`, beside this module.

>>> from solver import Deal
>>> card_html(Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")["N"][0])
'<span class="card black" data-card="SA">♠A</span>'

Test hooks in the markup: every card has `data-card="HA"`, every played card in the trick list
also `data-loss` (and, analysed with worlds, `data-verdict` and `data-sd-loss`), every trick `data-trick="1".."8"`, the chart is `<svg data-chart=...>`.
"""
from __future__ import annotations

import html
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..model.cards import Card, Seat, Suit, Team
from ..model.deal import Deal
from ..model.game import Game
from ..model.players import dummy_open_from, player_of, table_players
from ..model.record import GameRecord
from ..model.rules import Rules
from . import words

if TYPE_CHECKING:   # pragma: no cover
    from ..analysis import BidAnalysis, DDTable, LedigTable, PlayAnalysis, PlayStep

RED_SUITS = (Suit.H, Suit.D)
# Hands are shown in this suit order, as in the deal notation.
SHOWN_SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)


@lru_cache(maxsize=None)
def asset(name: str) -> str:
    """The text of one of the CSS and JS files of this package (`report.css`, `page.css`,
    `replay.js`), read from the installed package."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def esc(text: object) -> str:
    return html.escape(str(text))


# -- cards and hands ---------------------------------------------------------------------------

def card_html(card: Card, attrs: str = "", classes: str = "", value: Optional[int] = None,
              notation: str = "en") -> str:
    """One card, coloured by suit, with `data-card` (always in "en"); `value` is printed under
    it. The card is shown in `notation`: "♠B" for the jack of spades in "nl"."""
    names = " ".join(n for n in ("card", "red" if card.suit in RED_SUITS else "black", classes) if n)
    shown = f'<span class="value">{value:+d}</span>' if value is not None else ""
    return (f'<span class="{names}" data-card="{card}"{attrs}>'
            f'{esc(card.to_str(True, notation))}{shown}</span>')


# A card face down: a hand the players do not see yet (the dummy's, at a table of three).
CARD_BACK = '<span class="card back" title="face down">🂠</span>'


def cards_html(cards: Iterable[Card], notation: str = "en") -> str:
    return "".join(card_html(c, notation=notation) for c in cards)


def shown_order(cards: Iterable[Card]) -> List[Card]:
    """A hand as it is shown: by suit (S H D C), highest rank first."""
    return sorted(cards, key=lambda c: (SHOWN_SUITS.index(c.suit), -c.rank))


def hand_html(seat: Seat, cards: Iterable[Card], label: Optional[str] = None,
              dummy: bool = False, notation: str = "en") -> str:
    """A hand with its seat, or with `label` (`seat_labels`) in its place; the `dummy`'s is
    marked."""
    head = label if label is not None else f'<span class="seat">{seat}</span>'
    mark = ' dummy" data-dummy="1' if dummy else ""
    return f'<div class="hand {seat}{mark}">{head}{cards_html(shown_order(cards), notation)}</div>'


def compass_html(deal: Deal, middle: str = "", labels: Optional[Dict[Seat, str]] = None,
                 dummy: Optional[Seat] = None, notation: str = "en") -> str:
    """The four hands around the table: N on top, S below, W left, E right; each named by
    `labels` when given (`seat_labels`), the `dummy`'s marked; cards in `notation`."""
    hands = "".join(hand_html(seat, deal[seat], (labels or {}).get(seat), seat == dummy,
                              notation) for seat in Seat)
    return f'<div class="compass">{hands}<div class="middle">{middle}</div></div>'


# -- the people at the table (docs/rules.md, "Tables of three and of two") -------------------------

def seat_labels(record: GameRecord) -> Dict[Seat, str]:
    """Each hand's heading: its seat, and who plays it when that is worth saying (a named
    player, the dummy and the chooser of three players, the player of two who holds it)."""
    players = table_players(record.rules, record.playing, record.dummy, record.players)
    labels = {}
    for seat in Seat:
        player = player_of(players, seat)
        if seat == record.dummy:
            who = f"dummy, played by {player.name or player.seat.name}"
        else:
            parts = [player.name] if player.name else []
            if player.role == "chooser":
                parts.append("chooser")
            elif len(player.seats) == 2:
                parts.append(f"player {player.team}" if not parts else str(player.team))
            who = ", ".join(parts)
        extra = f'<span class="who">{esc(who)}</span>' if who else ""
        labels[seat] = f'<span class="seat">{seat}</span>{extra}'
    return labels


def players_html(record: GameRecord, notation: str = "en") -> str:
    """Who sits at the table, in words of `notation`'s language ("" for four players the
    record does not name)."""
    say = words.say(notation)
    players = table_players(record.rules, record.playing, record.dummy, record.players)
    if record.rules.players == 3:
        chooser, dummy = players[0].seats
        name = f"{players[0].name} ({chooser})" if players[0].name else str(chooser)
        opens = dummy_open_from(record.rules)
        seen = {0: "The defenders see the dummy's hand from the start.",
                1: "The defenders see the dummy's hand once the first card is on the table.",
                None: "The defenders never see the dummy's hand, only its cards as they are "
                      "played."}[opens]
        defenders = say(" and ").join(f"{p.name} ({p.seat})" if p.name else str(p.seat)
                                      for p in players[1:])
        text = say("Three players: {name} plays {chooser} and the dummy, {dummy} (the silent "
                   "partner); {defenders} defend. ", name=name, chooser=chooser, dummy=dummy,
                   defenders=defenders) + say(seen)
    elif record.rules.players == 2:
        text = say("Two players: ") + "; ".join(
            say("{who} holds {first} and {second}", who=p.name or p.team.name,
                first=p.seats[0], second=p.seats[1]) for p in players) + "."
    elif record.players:
        text = say("Players: ") + ", ".join(f"{s} {n}" for s, n in record.players.items()) + "."
    else:
        return ""
    return f'<p data-players="{record.rules.players}">{esc(text)}</p>'


def suit_html(suit: Suit) -> str:
    color = "red" if suit in RED_SUITS else "black"
    return f'<span class="{color}">{suit.symbol}</span>'


def rules_in_words(rules: Rules, notation: str = "en") -> str:
    """The rule options as a player would say them, in `notation`'s language."""
    say = words.say(notation)
    duty, under = _duties_in_words(rules, say)
    if rules.contract == "ledig":
        trump = (say("no trump, only the duty to follow suit") if rules.ledig_trump == "none"
                 else say("the round's trump with the duties of the trump game: {duty}, {under}",
                          duty=duty, under=under))
        return say("Ledig: the bidder undertakes to take no trick; {bonus} to the side that "
                   "wins the contract; {trump}.", bonus=rules.ledig_bonus, trump=trump)
    roem = say({"table": "roem in the tricks", "hand": "roem in hand", "none": "no roem"}[rules.roem])
    stuk = say({"trick": "stuk in one trick", "hand": "stuk for the seat dealt it",
                "none": "no stuk"}[rules.stuk]) if rules.roem != "none" else ""
    pit = say({"any": "pit {bonus} for either team", "playing": "pit {bonus} for the playing "
               "team only", "none": "no pit"}[rules.pit], bonus=rules.pit_bonus)
    nat = say({"majority": "nat unless strictly ahead", "82": "nat below 82 card points",
               "none": "no nat"}[rules.nat])
    parts = [duty, under, roem, stuk, pit, nat]
    if rules.double_suits:
        parts.append(say("double {suits}",
                         suits=" ".join(s.symbol for s in sorted(rules.double_suits))))
    if rules.multiplier > 1:
        parts.append(f"kraken ×{rules.multiplier}")
    if rules.zero_bonus:
        parts.append(say("zero bonus {bonus}", bonus=rules.zero_bonus))
    return "; ".join(p for p in parts if p) + "."


def _duties_in_words(rules: Rules, say: Callable[..., str]) -> Tuple[str, str]:
    """The trump duty and the undertrump option in words."""
    duty = say("no duty to trump over a partner who is winning (Amsterdam)"
               if rules.trump_duty == "amsterdam" else "trumping even over partner (Rotterdam)")
    under = say({"forbidden": "undertrumping only with nothing else",
                 "must": "undertrumping required", "free": "undertrumping free"}[rules.undertrump])
    return duty, under


# -- the double-dummy table --------------------------------------------------------------------

def dd_table_grid(table: "DDTable", team: Team, here: Optional[Tuple[Suit, Seat]] = None,
                  notation: str = "en") -> str:
    """Points for `team` by trump (rows) and leader (columns); * marks a makeable cell, and
    `here` (trump, leader) is outlined. Suits and labels in `notation`."""
    say = words.say(notation)
    head = "".join(f"<th>{s}</th>" for s in Seat)
    rows = []
    for suit in Suit:
        cells = []
        for seat in Seat:
            mark = "*" if table.makeable(suit, seat, team) else ""
            cls = ' class="here"' if here == (suit, seat) else ""
            cells.append(f"<td{cls}>{table.value(suit, seat, team):+d}{mark}</td>")
        rows.append(f"<tr><th>{suit_html(suit)} {suit.letter_in(notation)}</th>"
                    f"{''.join(cells)}</tr>")
    corner = esc(say("trump \\ leader"))
    return (f'<div class="scroll"><table class="grid" data-table="dd"><tr><th>'
            f'{corner}</th>{head}</tr>{"".join(rows)}</table></div>'
            f'<div>{say("points for {team}; * {team} makes it", team=team)}</div>')


def ledig_table_grid(table: "LedigTable", here: Optional[Tuple[Seat, Optional[Suit], Seat]] = None,
                     notation: str = "en") -> str:
    """Ledig by bidder (rows) and leader (columns), one table per trump under ledig_trump
    "chosen": minus the tricks the bidder takes, * where it takes none; `here` (bidder, trump,
    leader) is outlined. Suits and labels in `notation`."""
    say = words.say(notation)
    head = "".join(f"<th>{s}</th>" for s in Seat)
    tables = []
    for trump in table.trumps:
        rows = []
        for bidder in Seat:
            cells = []
            for leader in Seat:
                value = table.value(bidder, leader, trump)
                cls = ' class="here"' if here == (bidder, trump, leader) else ""
                cells.append(f"<td{cls}>{value}{'*' if value == 0 else ''}</td>")
            rows.append(f"<tr><th>{bidder}</th>{''.join(cells)}</tr>")
        corner = esc(say("bidder \\ leader")) + (
            f" ({suit_html(trump)} {trump.letter_in(notation)})" if trump is not None else "")
        tables.append(f'<div class="scroll"><table class="grid" data-table="ledig"><tr><th>'
                      f'{corner}</th>{head}</tr>{"".join(rows)}</table></div>')
    caption = say("ledig: minus the tricks the bidder takes with best play; * the bidder "
                  "takes none")
    return f'{"".join(tables)}<div>{caption}</div>'


# -- the bid ---------------------------------------------------------------------------------------

def bid_tables_html(bids: "BidAnalysis") -> str:
    """Every seat's value for every trump, one table per round of the procedure (draaikaart:
    round 1, the turned suit, and round 2); greyed where the seat may not choose, ! where it
    must when all pass."""
    tables = []
    for block in bids.rounds():
        head = "".join(f"<th>{suit_html(s)} {s}</th>" for s in block.trumps)
        rows = []
        for seat in Seat:
            cells = []
            for suit in block.trumps:
                o = bids.option(seat, suit)
                style = "" if o.allowed else ' style="color:#90a4ae"'
                forced = "!" if o.forced else ""
                cells.append(f"<td{style}>{o.value:+d}{'*' if o.makeable else ''}{forced}</td>")
            rows.append(f"<tr><th>{seat}</th>{''.join(cells)}</tr>")
        title = f"<div>{esc(block.title)}</div>" if block.title else ""
        name = f' data-round="{esc(block.name)}"' if block.name else ""
        tables.append(f'{title}<div class="scroll"><table class="grid"{name}><tr><th>seat</th>'
                      f'{head}</tr>{"".join(rows)}</table></div>')
    return "".join(tables)


def ledig_bids_html(bids: "BidAnalysis") -> str:
    """Each seat's ledig beside the trump bids: minus the tricks it takes, * when none (by
    trump under ledig_trump "chosen"); "" when the analysis has none."""
    if not bids.ledig:
        return ""
    trumps = sorted({b.trump for b in bids.ledig}, key=lambda t: -1 if t is None else t)
    head = "".join("<th>ledig</th>" if t is None else f"<th>ledig {suit_html(t)} {t}</th>"
                   for t in trumps)
    rows = []
    for seat in Seat:
        cells = "".join(f"<td>{b.value}{'*' if b.makeable else ''}</td>"
                        for b in (bids.ledig_bid(seat, t) for t in trumps))
        rows.append(f"<tr><th>{seat}</th>{cells}</tr>")
    return (f'<div class="scroll"><table class="grid" data-table="ledig-bids"><tr><th>seat</th>'
            f'{head}</tr>{"".join(rows)}</table></div><div>ledig: minus the tricks the bidder '
            f'takes; * it takes none</div>')


def bid_verdict_html(bids: "BidAnalysis") -> str:
    """The verdict on the recorded bid, its kind in `data-bid-verdict`; "" without a bid."""
    judged = bids.judge_bid()
    if judged is None:
        return ""
    return f'<p data-bid-verdict="{judged.kind}">{esc(judged.text)}</p>'


# -- a recorded play ---------------------------------------------------------------------------

def replayed(analysis: "PlayAnalysis") -> Game:
    """The round after the analysed cards (up to any illegal one)."""
    game = analysis.record.game()
    game.replay(step.card for step in analysis.steps)
    return game


def lost_text(step: "PlayStep", bidder: Optional[Seat] = None, now: bool = False,
              notation: str = "en") -> str:
    """What the card cost: "lost 12" (points); in a ledig round of `bidder`, where the cost
    is tricks the bidder takes, "gave the bidder 1 trick more" (its own team's card) or "let
    the bidder take 1 trick fewer" (a defender's). `now`: for a card about to be played,
    "loses 12". In `notation`'s language."""
    say = words.say(notation)
    if step.unit == "points" or bidder is None:
        return say("loses {loss}" if now else "lost {loss}", loss=step.loss)
    tricks = tricks_text(step.loss, notation)
    if step.seat.team == bidder.team:
        return say("gives the bidder {tricks} more" if now else "gave the bidder {tricks} more",
                   tricks=tricks)
    return say("lets the bidder take {tricks} fewer" if now else
               "let the bidder take {tricks} fewer", tricks=tricks)


def tricks_text(count: int, notation: str = "en") -> str:
    """"1 trick", "0 tricks", "3 tricks", in `notation`'s language."""
    say = words.say(notation)
    return say("1 trick") if count == 1 else say("{count} tricks", count=count)


def single_dummy_note(step: "PlayStep", notation: str = "en") -> str:
    """The step's single-dummy verdict in words with its expected loss and 95% interval, the
    best cards in `notation` ("" without worlds)."""
    if step.sd_loss is None:
        return ""
    best = " ".join(c.to_str(True, notation) for c in step.sd_best_cards)
    return (f"single dummy {step.verdict_meaning}; expected loss [95% interval] "
            f"{step.sd_loss_text}, best {best}")


def single_dummy_marks(step: "PlayStep") -> Tuple[str, str]:
    """(attributes, class) of a played card for its single-dummy verdict: data-verdict and
    data-sd-loss, and sd-mistake, sd-minor, sd-unlucky or sd-uncertain ("" without worlds)."""
    if step.sd_loss is None:
        return "", ""
    attrs = f' data-verdict="{step.verdict}" data-sd-loss="{esc(step.sd_loss_text)}"'
    return attrs, "" if step.verdict == "optimal" else f"sd-{step.verdict}"


def tricks_html(analysis: "PlayAnalysis", notation: str = "en") -> str:
    """Every trick of the recorded play: its cards with their losses, winner, points, roem,
    and with worlds each card's single-dummy verdict. After a revoke, its trick with the
    illegal card marked, and the record's later cards shown as not analysed. Cards and
    labels in `notation`."""
    steps = {s.number: s for s in analysis.steps}
    say = words.say(notation)
    bidder = analysis.record.bidder

    def judged(card: Card, number: int) -> str:
        step = steps[number]
        sd_attrs, sd_class = single_dummy_marks(step)
        cls = " ".join(c for c in ("loss" if step.loss else "", sd_class) if c)
        notes = ([lost_text(step, bidder, notation=notation)] if step.loss else []) + (
            [single_dummy_note(step, notation)] if sd_class else [])
        title = (f' title="{step.seat}: {esc(card.to_str(True, notation))} '
                 f'{esc("; ".join(notes))}"' if notes else "")
        return card_html(card, f' data-loss="{step.loss}" data-seat="{step.seat}"'
                               f'{sd_attrs}{title}', cls, notation=notation)

    game = replayed(analysis)
    first = analysis.bidder_first_trick
    parts = []
    for trick in game.tricks:
        cards = [judged(card, (trick.number - 1) * 4 + i + 1) for i, card in enumerate(trick.cards)]
        roem = f", roem {trick.roem}" if trick.roem else ""
        won = say(", {points} points", points=trick.points) + roem
        mark = ""
        if bidder is not None:      # ledig: only tricks count; the bidder's first one sinks it
            won = (say(", the bidder's first trick: ledig goes down") if trick.number == first
                   else say(", the bidder's") if trick.winner == bidder else "")
            mark = ' data-bidder-first="1"' if trick.number == first else ""
        leads = say("trick {number}: {leader} leads", number=trick.number, leader=trick.leader)
        won_by = say("won by {winner} ({team})", winner=trick.winner, team=trick.winner.team)
        parts.append(f'<div class="trick" data-trick="{trick.number}"{mark}><div>{leads}</div>'
                     f'<div>{"".join(cards)}</div><div>{won_by}{won}</div></div>')
    if analysis.illegal is not None:
        parts.append(revoke_trick_html(analysis, game, judged, notation))
    return f'<div class="tricks">{"".join(parts)}</div>'


def revoke_trick_html(analysis: "PlayAnalysis", game: Game, judged: Callable[[Card, int], str],
                      notation: str = "en") -> str:
    """The trick of a revoke: the cards before it, the illegal card marked, and the record's
    cards after it, not analysed (the round ends at the revoke)."""
    bad = analysis.illegal
    assert bad is not None
    first = bad.number - len(game.current_trick)
    cards = [judged(card, first + i) for i, card in enumerate(game.current_trick)]
    cards.append(card_html(bad.card, f' data-illegal="{bad.duty}" data-seat="{bad.seat}" '
                                     f'title="{esc(bad.message)}"', "illegal", notation=notation))
    rest = analysis.record.played[bad.number:]
    after = (f'<div data-not-analysed="{len(rest)}">not analysed: the {len(rest)} recorded '
             f'card{"s" if len(rest) != 1 else ""} after it '
             f'{"".join(card_html(c, classes="not-analysed", notation=notation) for c in rest)}</div>'
             if rest else "")
    leads = words.say(notation)("trick {number}: {leader} leads", number=bad.trick,
                                leader=game.trick_leader)
    return (f'<div class="trick" data-trick="{bad.trick}"><div>{leads}</div><div>{"".join(cards)}</div><div>revoke (verzaken) '
            f'by {bad.seat}: {esc(bad.message)}; the round ends here</div>{after}</div>')


def points_so_far(record: GameRecord, cards: Sequence[Card]) -> List[int]:
    """The `points` objective's running value for the playing team, before the first card and
    after each of `cards`: its card points, last trick, roem (hand roem counted from the start)
    and pit so far, less the other team's. After the last card of a round it is the round's
    `points` value, which the double-dummy value reaches too.

    >>> from solver import GameRecord
    >>> record = GameRecord.load("examples/game.json")
    >>> points_so_far(record, record.played)[-1]
    136
    """
    game = record.game()

    def lead() -> int:
        if record.bidder is not None:   # ledig: minus the bidder's tricks so far
            return -sum(t.winner == record.bidder for t in game.tricks)
        return game.tally(record.playing).total - game.tally(record.playing.other).total

    values = [lead()]
    for card in cards:
        game.play(card)
        values.append(lead())
    return values


def chart_svg(analysis: "PlayAnalysis", notation: str = "en") -> str:
    """The double-dummy value after every card beside the `points` value so far, both for the
    playing team, with every card that lost points marked; cards and labels in `notation`."""
    say = words.say(notation)
    r = analysis.record
    dd = [analysis.start_value] + [s.value_after for s in analysis.steps]
    so_far = points_so_far(r, [s.card for s in analysis.steps])
    low, high = min(dd + so_far + [0]), max(dd + so_far + [0])
    span = max(high - low, 1)
    width, height, left, top, bottom = 640, 240, 44, 12, 28
    plot_h = height - top - bottom

    def x(i: float) -> float:
        return left + (width - left - 10) * i / 32

    def y(v: float) -> float:
        return top + plot_h * (high - v) / span

    def path(values: List[int]) -> str:
        return " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))

    grid = [f'<line x1="{left}" x2="{width - 10}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#90a4ae" '
            f'stroke-dasharray="4 3"/>']
    for t in range(1, 9):
        grid.append(f'<line x1="{x(4 * t):.1f}" x2="{x(4 * t):.1f}" y1="{top}" y2="{height - bottom}" '
                    f'stroke="#eceff1"/><text x="{x(4 * t - 2):.1f}" y="{height - 10}" '
                    f'font-size="11" text-anchor="middle" fill="#607d8b">{t}</text>')
    for v in (low, high):
        grid.append(f'<text x="{left - 4}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end" '
                    f'fill="#607d8b">{v:+d}</text>')
    marks = [f'<circle cx="{x(s.number):.1f}" cy="{y(s.value_after):.1f}" r="{3 + min(s.loss, 60) / 12:.1f}" '
             f'fill="#c62828" data-loss="{s.loss}"><title>{say("card {number}", number=s.number)}: {s.seat} '
             f'{esc(s.card.to_str(True, notation))} {lost_text(s, r.bidder, notation=notation)}'
             f'</title></circle>' for s in analysis.steps if s.loss]
    so_far_text = (say("minus the tricks {bidder} took so far", bidder=r.bidder)
                   if r.bidder is not None else
                   say("points so far, {playing} less {other} (cards, roem, pit)",
                       playing=r.playing, other=r.playing.other))
    legend = (f'<div class="legend"><span style="color:#1565c0">'
              f'{say("━ double-dummy value for {team}", team=r.playing)}</span>'
              f'<span style="color:#ef6c00">━ {so_far_text}</span><span style="color:#c62828">'
              f'{say("● a card that lost {unit}", unit=say(analysis.unit))}</span></div>')
    return (f'<svg data-chart="value" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="double-dummy value after every card">{"".join(grid)}'
            f'<path data-line="so-far" d="{path(so_far)}" fill="none" stroke="#ef6c00" stroke-width="2"/>'
            f'<path data-line="double-dummy" d="{path(dd)}" fill="none" stroke="#1565c0" '
            f'stroke-width="2.5"/>{"".join(marks)}</svg>{legend}')

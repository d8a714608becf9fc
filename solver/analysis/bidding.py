"""Bid analysis: for every seat and trump, would that team make it, under a bidding procedure
(the procedure itself, who may choose what and when, is the model's: `solver.model.bidding`)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..model.bidding import ON_ALL_PASS as ON_ALL_PASS, PROCEDURES as PROCEDURES, allowed_when
from ..model.cards import Seat, SeatLike, Suit, SuitLike
from ..model.deal import Deal, check_deal
from ..model.streams import derive
from ..errors import SolverError, choice, quote, reading_fields, whole_number
from ..model.game import Game
from ..model.rules import Rules, check_rules
from ..model.scoring import Value
from .parallel import solve_all
from ..engine.search import Solver
from ..model.worlds import MOST_WORLDS, sample_worlds


# A recorded bid: the seat and the trump it chose, ("N", "H") or "N H".
BidLike = Union[str, Tuple[SeatLike, SuitLike], Sequence[str]]


@dataclass(frozen=True)
class BidOption:
    """One seat choosing one trump: would its team make it, and by how much (points)."""

    seat: Seat
    trump: Suit
    leader: Seat
    value: int          # points value for the seat's team
    makeable: bool
    allowed: bool       # whether the procedure lets this seat choose this trump
    how: str            # when it can: "round 1", "round 2", "forced when all pass", ...
    # From the seat's own hand alone (analyse_bidding with worlds): the share of the worlds
    # in which its team makes it, and the mean points value. None without worlds.
    sd_makes: Optional[float] = None
    sd_value: Optional[float] = None

    @property
    def round(self) -> Optional[str]:
        """When in the procedure the seat may choose this trump: "round 1" or "round 2" under
        draaikaart, else the whole of `how`; None when never. A recorded bid is compared with
        the other trumps of its round."""
        return None if not self.allowed else self.how.split(" (")[0]

    @property
    def forced(self) -> bool:
        """Whether the seat must play this (or another trump of its round) when all pass."""
        return "forced when all pass" in self.how

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values; the single-dummy fields only when they were computed."""
        data: Dict[str, Any] = {
            "seat": self.seat.name, "trump": self.trump.name, "leader": self.leader.name,
            "value": self.value, "makeable": self.makeable, "allowed": self.allowed,
            "how": self.how}
        if self.sd_makes is not None:
            data.update(sd_makes=self.sd_makes, sd_value=self.sd_value)
        return data

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "BidOption":
        """The option `to_dict` wrote."""
        with reading_fields("a bid option", d):
            return cls(Seat.parse(d["seat"]), Suit.parse(d["trump"]), Seat.parse(d["leader"]),
                       d["value"], d["makeable"], d["allowed"], d["how"], d.get("sd_makes"),
                       d.get("sd_value"))


@dataclass(frozen=True)
class LedigBid:
    """One seat bidding ledig (to take no trick): its value, minus the tricks it takes with
    best play by both sides, and whether it takes none. `trump` is None without trump
    (ledig_trump "none"), else the trump the round would have."""

    seat: Seat
    trump: Optional[Suit]
    leader: Seat
    value: int          # minus the tricks the bidder takes; 0 when makeable
    makeable: bool
    # From the bidder's own hand alone (analyse_bidding with worlds): the share of the worlds
    # in which it takes no trick, and the mean value. None without worlds.
    sd_makes: Optional[float] = None
    sd_value: Optional[float] = None

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values; the single-dummy fields only when they were computed."""
        data: Dict[str, Any] = {
            "seat": self.seat.name, "trump": self.trump.name if self.trump is not None else None,
            "leader": self.leader.name, "value": self.value, "makeable": self.makeable}
        if self.sd_makes is not None:
            data.update(sd_makes=self.sd_makes, sd_value=self.sd_value)
        return data

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "LedigBid":
        """The ledig bid `to_dict` wrote."""
        with reading_fields("a ledig bid", d):
            return cls(Seat.parse(d["seat"]), Suit.parse(d["trump"]) if d["trump"] else None,
                       Seat.parse(d["leader"]), d["value"], d["makeable"], d.get("sd_makes"),
                       d.get("sd_value"))


def _names(items: Sequence[str], conjunction: str) -> str:
    """"C", "C or D", "C, D or H" (or "and")."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def _made(option: BidOption) -> str:
    return "makeable" if option.makeable else "not makeable"


@dataclass(frozen=True)
class BidVerdict:
    """The verdict on a recorded bid: `kind` is "best" (no trump open to the seat in the round
    it chose was worth more), "worse" (`better` was) or "not_allowed" (the procedure does not
    let the seat choose that trump, so no trump is compared); `compared` are the trumps open to
    the seat in that `round`. `text` says it in words."""

    kind: str
    seat: Seat
    trump: Suit
    makeable: bool
    value: int
    round: Optional[str]
    compared: Tuple[Suit, ...]
    better: Optional[BidOption]
    text: str

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values (the verdict is recomputed from the options when read back)."""
        better = None if self.better is None else {
            "trump": self.better.trump.name, "value": self.better.value,
            "makeable": self.better.makeable}
        return {"kind": self.kind, "seat": self.seat.name, "trump": self.trump.name,
                "makeable": self.makeable, "value": self.value, "round": self.round,
                "compared": [s.name for s in self.compared], "better": better,
                "text": self.text}


class BidRound(NamedTuple):
    """One block of the bid table: the trumps chosen in one round of the procedure (`name`
    "round 1" or "round 2" under draaikaart; None when the procedure has no rounds)."""

    name: Optional[str]
    title: str
    trumps: Tuple[Suit, ...]


@dataclass(frozen=True, repr=False)
class BidAnalysis:
    """Every seat and trump under a bidding procedure, and the verdict on a recorded bid."""

    deal: Deal
    dealer: Seat
    rules: Rules
    procedure: str
    turned: Optional[Suit]
    options: List[BidOption]
    bid: Optional[Tuple[Seat, Suit]] = None
    # With ledig: every seat's ledig (by trump too, under ledig_trump "chosen").
    ledig: List[LedigBid] = field(default_factory=list)

    def ledig_bid(self, seat: SeatLike, trump: Optional[SuitLike] = None) -> LedigBid:
        """The ledig of `seat` (with `trump` under ledig_trump "chosen")."""
        seat = Seat.parse(seat)
        wanted = Suit.parse(trump) if trump is not None else None
        for bid in self.ledig:
            if bid.seat == seat and bid.trump == wanted:
                return bid
        raise SolverError(f"no ledig of {seat.name}" + (f" with trump {wanted.name}" if wanted
                                                         is not None else "")
                          + " in this analysis (analyse_bidding(..., ledig=True))")

    def option(self, seat: SeatLike, trump: SuitLike) -> BidOption:
        """The option of `seat` choosing `trump`."""
        seat, trump = Seat.parse(seat), Suit.parse(trump)
        return next(o for o in self.options if o.seat == seat and o.trump == trump)

    def best_trump(self, seat: SeatLike) -> BidOption:
        """The allowed trump with the highest value for `seat`'s team, in any round (a recorded
        bid is compared only with the trumps of its own round: `judge_bid`)."""
        seat = Seat.parse(seat)
        choices = [o for o in self.options if o.seat == seat and o.allowed]
        if not choices:
            raise SolverError(f"under {self.procedure}, seat {seat.name} may not choose a trump")
        return max(choices, key=lambda o: (o.value, -o.trump))

    def who_may_choose(self) -> str:
        """Who may choose which trump under the procedure, in words: "every seat may choose
        only C", "only N may choose any trump"."""
        groups: Dict[Tuple[Suit, ...], List[str]] = {}
        for seat in Seat:
            trumps = tuple(sorted(o.trump for o in self.options if o.seat == seat and o.allowed))
            groups.setdefault(trumps, []).append(seat.name)
        parts = []
        for trumps, seats in groups.items():
            if not trumps:
                continue
            who = "every seat" if len(seats) == 4 else _names(seats, "and")
            what = "any trump" if len(trumps) == 4 else \
                ("only " if len(trumps) == 1 else "") + _names([t.name for t in trumps], "or")
            parts.append(f"{who} may choose {what}")
        only = "only " if len(parts) == 1 and () in groups else ""
        return only + ", ".join(parts)

    def judge_bid(self) -> Optional[BidVerdict]:
        """The verdict on the recorded bid (None without one): not allowed when the procedure
        does not let the seat choose that trump; else the best choice, or worse than another
        trump open to the same seat in the same round."""
        if self.bid is None:
            return None
        seat, trump = self.bid
        chosen = self.option(seat, trump)
        text = f"{seat.name} chose {trump.name}: {_made(chosen)} ({chosen.value:+d})"
        better: Optional[BidOption] = None
        compared: Tuple[Suit, ...] = ()
        if chosen.round is None:
            kind = "not_allowed"
            text += (f"; not allowed: {self.procedure} does not let {seat.name} choose "
                     f"{trump.name} ({self.who_may_choose()})")
        else:
            open_to_seat = [o for o in self.options if o.seat == seat and o.round == chosen.round]
            compared = tuple(sorted(o.trump for o in open_to_seat))
            best = max(open_to_seat, key=lambda o: (o.value, -o.trump))
            scope = (f"in {chosen.round}" if self.procedure == "draaikaart"
                     else f"under {self.procedure}")
            trumps = _names([suit.name for suit in compared], "and")
            if best.value > chosen.value:
                kind, better = "worse", best
                text += (f"; {best.trump.name} was better ({best.value:+d}, {_made(best)}) of "
                         f"the trumps open to {seat.name} {scope} ({trumps})")
            elif len(compared) == 1:
                kind = "best"
                text += f"; the best choice: {trumps} was the only trump open to {seat.name} {scope}"
            else:
                kind = "best"
                text += f"; the best choice of the trumps open to {seat.name} {scope} ({trumps})"
        if chosen.sd_makes is not None and chosen.sd_value is not None:
            text += (f"; with what {seat.name} held: makes it in {chosen.sd_makes:.0%} of "
                     f"worlds, {chosen.sd_value:+.1f} on average")
        return BidVerdict(kind, seat, trump, chosen.makeable, chosen.value, chosen.round,
                          compared, better, text)

    def verdict(self) -> Optional[str]:
        """The verdict on the recorded bid in words (`judge_bid().text`); None without a bid."""
        judged = self.judge_bid()
        return None if judged is None else judged.text

    def rounds(self) -> List[BidRound]:
        """The blocks of the table: under draaikaart round 1 (the turned suit, which any seat
        may take) and round 2 (another trump, when all passed), each with its title; under
        the other procedures one block of every trump, untitled."""
        if self.procedure != "draaikaart":
            return [BidRound(None, "", tuple(Suit))]
        first = self.dealer.left.name
        blocks = []
        for name, offer, must in (("round 1", "take it", "must play it"),
                                  ("round 2", "name another trump", "must choose")):
            options = [o for o in self.options if o.round == name]
            trumps = tuple(sorted({o.trump for o in options}))
            seats = [s.name for s in Seat if any(o.seat == s for o in options)]
            who = "any seat" if len(seats) == 4 else _names(seats, "or")
            title = (f"round 1, the turned {_names([t.name for t in trumps], 'or')}"
                     if name == "round 1" else "round 2, when all passed")
            title += f": {who} may {offer}, in turn from {first}"
            forced = [s.name for s in Seat if any(o.seat == s and o.forced for o in options)]
            if forced:
                title += f"; ! {_names(forced, 'or')} {must} when all pass"
            blocks.append(BidRound(name, title, trumps))
        return blocks

    def __str__(self) -> str:
        turned = f", turned {self.turned.name}" if self.turned is not None else ""
        rounds = self.rounds()
        marks = ("! must play when all pass" if rounds[0].name is not None
                 else "- not open to that seat")
        lines = [f"{self.procedure}{turned}, dealer {self.dealer.name}: points for the "
                 f"chooser's team; * makeable; {marks}"]
        with_worlds = any(o.sd_makes is not None for o in self.options)
        for block in rounds:
            if block.title:
                lines.append(block.title)
            lines.append("seat" + "".join(f"{s.symbol + ' ' + s.name:>7}  "
                                          for s in block.trumps).rstrip())
            for seat in Seat:
                cells = []
                for suit in block.trumps:
                    o = self.option(seat, suit)
                    mark = ("!" if o.forced else " ") if block.name else \
                        (" " if o.allowed else "-")
                    cells.append(f"{o.value:>+7d}{'*' if o.makeable else ' '}{mark}")
                lines.append(f"{seat.name:<4}" + "".join(cells).rstrip())
            if with_worlds:
                lines.append("From each seat's own hand alone: chance of making it, mean points")
                for seat in Seat:
                    cells = [f"{o.sd_makes or 0:>5.0%} {o.sd_value or 0:>+6.1f}" for o in
                             (self.option(seat, suit) for suit in block.trumps)]
                    lines.append(f"{seat.name:<4}" + "  ".join(cells))
        lines += self._ledig_lines()
        verdict = self.verdict()     # None without a recorded bid
        if verdict is not None:
            lines.append(verdict)
        return "\n".join(lines)

    def _ledig_lines(self) -> List[str]:
        """Each seat's ledig: minus the tricks it takes, * when it takes none."""
        if not self.ledig:
            return []
        trumps = sorted({b.trump for b in self.ledig}, key=lambda t: -1 if t is None else t)
        title = ("ledig, no trump" if trumps == [None] else "ledig, by trump")
        lines = [f"{title}: minus the tricks the bidder takes; * takes none (makeable)",
                 "seat" + "".join(f"{t.symbol + ' ' + t.name:>7}  " if t is not None else
                                  f"{'ledig':>7}  " for t in trumps).rstrip()]
        for seat in Seat:
            cells = [f"{b.value:>7d}{'*' if b.makeable else ' '} "
                     for b in (self.ledig_bid(seat, t) for t in trumps)]
            lines.append(f"{seat.name:<4}" + "".join(cells).rstrip())
        if any(b.sd_makes is not None for b in self.ledig):
            lines.append("From the bidder's own hand alone: chance of taking no trick, mean")
            for seat in Seat:
                cells = [f"{b.sd_makes or 0:>5.0%} {b.sd_value or 0:>+6.2f}"
                         for b in (self.ledig_bid(seat, t) for t in trumps)]
                lines.append(f"{seat.name:<4}" + "  ".join(cells))
        return lines

    def __repr__(self) -> str:
        bid = f", bid {self.bid[0]} {self.bid[1]}" if self.bid else ""
        return (f"BidAnalysis({self.deal.to_pbn()!r}, {self.procedure}, dealer {self.dealer}"
                f"{bid}: {len(self.options)} options)")

    def _repr_html_(self) -> str:
        from ..html.jupyter import bid_analysis_html
        return bid_analysis_html(self)

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values, with the verdict on the bid (`BidVerdict.to_dict`);
        `from_dict` reads them back."""
        judged = self.judge_bid()
        return {"deal": self.deal.to_pbn(), "dealer": self.dealer.name,
                "rules": self.rules.to_dict(), "procedure": self.procedure,
                "turned": self.turned.name if self.turned is not None else None,
                "options": [o.to_dict() for o in self.options],
                "bid": [self.bid[0].name, self.bid[1].name] if self.bid else None,
                "verdict": None if judged is None else judged.to_dict(),
                **({"ledig": [b.to_dict() for b in self.ledig]} if self.ledig else {})}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "BidAnalysis":
        """The analysis `to_dict` wrote. The verdict is judged again from the options, so the
        older form, with the verdict as a string, reads the same."""
        with reading_fields("a bid analysis", d):
            bid = (Seat.parse(d["bid"][0]), Suit.parse(d["bid"][1])) if d.get("bid") else None
            return cls(Deal.from_pbn(d["deal"]), Seat.parse(d["dealer"]), Rules.from_dict(d["rules"]),
                       d["procedure"], Suit.parse(d["turned"]) if d.get("turned") else None,
                       [BidOption.from_dict(o) for o in d["options"]], bid,
                       [LedigBid.from_dict(b) for b in d.get("ledig", [])])


def analyse_bidding(deal: Deal, dealer: SeatLike, rules: Optional[Rules] = None,
                    procedure: str = "draaikaart", turned: Optional[SuitLike] = None,
                    on_all_pass: str = "turned_forced", chooser_leads: bool = False,
                    bid: Optional[BidLike] = None,
                    solver: Optional[Solver] = None, worlds: int = 0, seed: int = 0,
                    workers: Optional[int] = None, ledig: Optional[bool] = None) -> BidAnalysis:
    """For every seat and trump: would that seat's team make it, and by how much.

    With `ledig` (by default when the rules' contract is "ledig"), also whether each seat
    could have bid ledig and taken no trick (`BidAnalysis.ledig`: by trump too under
    ledig_trump "chosen"; with `worlds`, the chance from the bidder's own hand too); the
    trump bids are judged under the same rules with contract "trump".

    The leader is left of the dealer, or the chooser with `chooser_leads` (spelpunt). `bid`,
    e.g. ("N", "H"), is the recorded choice to judge. With `worlds`, each option also gets
    the chance of making it and the mean points from the seat's own hand alone: over that many
    deals of the other cards (seeded by `seed`). Everything is solved on `workers` threads
    (default: all cores; a `solver` given is used alone).
    """
    check_deal(deal)
    rules = check_rules(rules)
    if ledig is None:
        ledig = rules.contract == "ledig"
    elif not isinstance(ledig, bool):
        raise SolverError(f"ledig must be true or false, got {quote(ledig)}")
    ledig_rules = replace(rules, contract="ledig")
    rules = replace(rules, contract="trump")
    dealer = Seat.parse(dealer)
    choice("procedure", procedure, PROCEDURES)
    choice("on_all_pass", on_all_pass, ON_ALL_PASS)
    worlds = whole_number("worlds", worlds, 0, MOST_WORLDS)
    seed = whole_number("seed", seed)
    turned = Suit.parse(turned) if turned is not None else None
    if procedure == "draaikaart" and turned is None:
        raise SolverError("procedure draaikaart needs the turned suit (turned='H', say)")
    if not isinstance(chooser_leads, bool):
        raise SolverError(f"chooser_leads must be true or false, got {quote(chooser_leads)}")
    when = {(seat, trump): allowed_when(procedure, seat, trump, dealer, turned, on_all_pass)
            for seat in Seat for trump in Suit}
    parsed_bid = _parse_bid(bid)
    if parsed_bid is not None and not any(when[parsed_bid[0], t] for t in Suit):
        seat = parsed_bid[0]
        choosers = [s.name for s in Seat if any(when[s, t] for t in Suit)]
        raise SolverError(f"under {procedure} seat {seat.name} may not choose a trump, so it "
                          f"cannot have bid; {' or '.join(choosers)} chooses")
    def option(solver: Solver, choice: Tuple[Seat, Suit]) -> BidOption:
        seat, trump = choice
        leader = seat if chooser_leads else dealer.left
        game = Game(deal, trump, leader, seat.team, rules, dummy=_dummy_of(seat, rules))
        how = when[seat, trump]
        points, makes = solver.value_and_make(game)
        return BidOption(seat, trump, leader, points, makes, bool(how), how or "never")

    choices = [(seat, trump) for seat in Seat for trump in Suit]
    options = solve_all(option, choices, rules, workers, solver)
    if worlds:
        options = _with_worlds(options, deal, rules, worlds, seed, workers)
    ledig_bids = _ledig_bids(deal, dealer, ledig_rules, chooser_leads, solver, workers) \
        if ledig else []
    if ledig and worlds:
        ledig_bids = _ledig_with_worlds(ledig_bids, deal, ledig_rules, worlds, seed, workers)
    return BidAnalysis(deal, dealer, rules, procedure, turned, options, parsed_bid, ledig_bids)


def _ledig_bids(deal: Deal, dealer: Seat, rules: Rules, chooser_leads: bool,
                solver: Optional[Solver], workers: Optional[int]) -> List[LedigBid]:
    """Every seat's ledig, with the leader of the trump bids (left of the dealer, or the
    bidder itself under chooser_leads)."""
    trumps: List[Optional[Suit]] = list(Suit) if rules.ledig_trump == "chosen" else [None]

    def bid(solver: Solver, where: Tuple[Seat, Optional[Suit]]) -> LedigBid:
        seat, trump = where
        leader = seat if chooser_leads else dealer.left
        value = solver.value(Game(deal, trump, leader, None, rules, bidder=seat,
                                  dummy=_dummy_of(seat, rules)), "points")
        return LedigBid(seat, trump, leader, value, value == 0)

    return solve_all(bid, [(seat, t) for seat in Seat for t in trumps], rules, workers, solver)


def _own_hand_worlds(deal: Deal, rules: Rules, worlds: int, seed: int) -> Dict[Seat, List[Deal]]:
    """For each seat, `worlds` deals of the other cards around its own hand (before any card
    is played the rules do not tell the worlds apart). At a table of two the seat's player
    holds its partner's hand too; at a table of three the chooser has not seen the dummy yet
    when he bids, so his worlds are those of his own hand, as at a table of four."""
    start = replace(rules, contract="trump", players=4 if rules.players == 3 else rules.players)
    return {seat: sample_worlds(Game(deal, Suit.C, seat, seat.team, start), seat, worlds,
                                derive(seed, seat)) for seat in Seat}


def _ledig_with_worlds(bids: List[LedigBid], deal: Deal, rules: Rules, worlds: int, seed: int,
                       workers: Optional[int]) -> List[LedigBid]:
    """Each ledig with its chance of taking no trick and mean value from the bidder's hand
    alone, over the same worlds as the trump bids."""
    sampled = _own_hand_worlds(deal, rules, worlds, seed)
    jobs = [(b, world) for b in bids for world in sampled[b.seat]]

    def solve(solver: Solver, job: Tuple[LedigBid, Deal]) -> int:
        bid, world = job
        return solver.value(Game(world, bid.trump, bid.leader, None, rules, bidder=bid.seat,
                                 dummy=_dummy_of(bid.seat, rules)))

    results = solve_all(solve, jobs, rules, workers)
    out: List[LedigBid] = []
    for i, bid in enumerate(bids):
        mine = results[i * worlds:(i + 1) * worlds]
        out.append(replace(bid, sd_makes=sum(v == 0 for v in mine) / worlds,
                           sd_value=sum(mine) / worlds))
    return out


def _with_worlds(options: List[BidOption], deal: Deal, rules: Rules, worlds: int, seed: int,
                 workers: Optional[int]) -> List[BidOption]:
    """Each option with its chance of making and mean points from the seat's hand alone
    (at a table of two, from both hands its player holds)."""
    sampled = _own_hand_worlds(deal, rules, worlds, seed)
    jobs = [(o, world) for o in options for world in sampled[o.seat]]

    def solve(solver: Solver, job: Tuple[BidOption, Deal]) -> Tuple[Value, bool]:
        option, world = job
        return solver.value_and_make(Game(world, option.trump, option.leader, option.seat.team,
                                          rules, dummy=_dummy_of(option.seat, rules)))

    results = solve_all(solve, jobs, rules, workers)
    out: List[BidOption] = []
    for i, option in enumerate(options):
        mine = results[i * worlds:(i + 1) * worlds]
        out.append(replace(option, sd_makes=sum(m for _, m in mine) / worlds,
                           sd_value=sum(v for v, _ in mine) / worlds))
    return out


def _dummy_of(seat: Seat, rules: Rules) -> Optional[Seat]:
    """The dummy when `seat` chooses at a table of three: the hand opposite him."""
    return seat.partner if rules.players == 3 else None


def _parse_bid(bid: Any) -> Optional[Tuple[Seat, Suit]]:
    """A recorded bid, (seat, trump) or "N H", as a Seat and a Suit."""
    if bid is None:
        return None
    parts = bid.replace(",", " ").split() if isinstance(bid, str) else bid
    if not isinstance(parts, (list, tuple)) or len(parts) != 2:
        raise SolverError(f"a bid is the seat and the trump it chose, e.g. ('N', 'H'); got {quote(bid)}")
    return Seat.parse(parts[0]), Suit.parse(parts[1])

"""The analyses users come for: double-dummy tables, play analysis, bid analysis.

>>> from solver import Deal, Rules, solve_table
>>> table = solve_table(Deal.random(1), rules=Rules.amsterdam())
>>> table.value(trump="H", leader="E") == -table.value(trump="H", leader="E", team="EW")
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .cards import Card, Seat, Suit, Team, parse_cards
from .deal import Deal
from .errors import IllegalPlayError, RecordError, RulesError, SolverError, quote
from .game import Game
from .rules import Rules
from .scoring import final_scores, is_made, revoke_scores
from .search import Solver

# -- double-dummy table -------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class DDTable:
    """Points values and makeability for every trump suit and leader (DDS's `calc_dd_table`).

    `values[team][trump][leader]` is the `points` value with `team` playing;
    `makes[team][trump][leader]` whether `team` avoids nat. Keys are letters: "NS", "H", "E".
    """

    deal: Deal
    rules: Rules
    values: Dict[str, Dict[str, Dict[str, int]]]
    makes: Dict[str, Dict[str, Dict[str, bool]]]

    def value(self, trump, leader, team="NS") -> int:
        """The points value for `team` playing with this trump and leader."""
        return self.values[Team.parse(team).name][Suit.parse(trump).name][Seat.parse(leader).name]

    def makeable(self, trump, leader, team="NS") -> bool:
        """Whether `team`, playing with this trump and leader, avoids nat."""
        return self.makes[Team.parse(team).name][Suit.parse(trump).name][Seat.parse(leader).name]

    def to_numpy(self, team="NS"):
        """int16 array [trump][leader], suits C D H S, seats N E S W."""
        import numpy as np   # only here: importing solver should not start NumPy's threads
        team = Team.parse(team).name
        return np.array([[self.values[team][s.name][p.name] for p in Seat] for s in Suit],
                        dtype=np.int16)

    def to_dict(self) -> Dict[str, Any]:
        return {"deal": self.deal.to_pbn(), "rules": self.rules.to_dict(),
                "values": self.values, "makeable": self.makes}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "DDTable":
        return cls(Deal.from_pbn(data["deal"]), Rules.from_dict(data["rules"]),
                   data["values"], data["makeable"])

    def __str__(self) -> str:
        lines = ["points for NS by trump and leader; * NS makes it, ° EW makes it",
                 "trump    " + "".join(f"{s.name:>8}" for s in Seat)]
        for suit in Suit:
            cells = []
            for seat in Seat:
                mark = ("*" if self.makeable(suit, seat, "NS") else
                        "°" if self.makeable(suit, seat, "EW") else " ")
                cells.append(f"{self.value(suit, seat):>+7d}{mark}")
            lines.append(f"{suit.symbol} {suit.name}      " + "".join(cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        rows = "; ".join(f"{s}: " + " ".join(f"{self.value(s, p):+d}" for p in Seat) for s in Suit)
        return f"DDTable({self.deal.to_pbn()!r}, NS points by trump, leaders N E S W: {rows})"

    def _repr_html_(self) -> str:
        from .report import piece, table_html
        return piece(table_html(self, Team.NS))



def solve_table(deal: Deal, rules: Optional[Rules] = None, solver: Optional[Solver] = None) -> DDTable:
    """Solve every trump suit and leader for both teams: 16 `points` values and 32 `make` tests."""
    rules = rules if rules is not None else Rules()
    solver = solver or Solver(rules)
    values: Dict[str, Dict[str, Dict[str, int]]] = {t.name: {} for t in Team}
    makes: Dict[str, Dict[str, Dict[str, bool]]] = {t.name: {} for t in Team}
    for suit in Suit:
        for team in Team:
            values[team.name][suit.name] = {}
            makes[team.name][suit.name] = {}
        for leader in Seat:
            ns = solver.value(Game(deal, suit, leader, Team.NS, rules), "points")
            # One solve serves both teams, except when only the playing team can earn pit.
            ew = (-ns if rules.pit != "playing"
                  else solver.value(Game(deal, suit, leader, Team.EW, rules), "points"))
            values["NS"][suit.name][leader.name] = ns
            values["EW"][suit.name][leader.name] = ew
            for team in Team:
                makes[team.name][suit.name][leader.name] = bool(
                    solver.value(Game(deal, suit, leader, team, rules), "make"))
    return DDTable(deal, rules, values, makes)


# -- game records -------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRecord:
    """A recorded round: the deal, who dealt, the trump, the leader, who played, the rules,
    and the cards played (complete or not, legal or not).

    JSON: {"deal": "N:...", "dealer": "W", "trump": "H", "leader": "N", "playing": "NS",
    "rules": "amsterdam" | "rotterdam" | {options}, "played": ["HA", ...] or "HA HT ...",
    "chooser_leads": false}. `leader` may be left out: then the seat left of the dealer leads;
    a leader elsewhere needs `chooser_leads` (the chooser leads, spelpunt).

    A play that cannot happen at a table is a `RecordError`: a card its seat does not hold
    (played twice, or dealt to another seat), or a card after the 32nd. A held card that
    breaks a duty is a revoke, which `analyse_play` reports and scores.
    """

    deal: Deal
    trump: Suit
    leader: Seat
    playing: Team
    rules: Rules = field(default_factory=Rules)
    played: Tuple[Card, ...] = ()
    dealer: Optional[Seat] = None
    chooser_leads: bool = False

    def __post_init__(self) -> None:
        def setting(name, parse):
            try:
                object.__setattr__(self, name, parse(getattr(self, name)))
            except SolverError as err:
                raise RecordError(f"game record field {name!r}: {err}") from None

        if not isinstance(self.deal, Deal):
            raise RecordError(f"game record field 'deal' must be a Deal, got {quote(self.deal)}")
        setting("trump", Suit.parse)
        setting("leader", Seat.parse)
        setting("playing", Team.parse)
        setting("rules", load_rules)
        setting("played", lambda cards: tuple(parse_cards(cards)))
        if self.dealer is not None:
            setting("dealer", Seat.parse)
        if not isinstance(self.chooser_leads, bool):
            raise RecordError(f"game record field 'chooser_leads' must be true or false, got "
                              f"{quote(self.chooser_leads)}")
        if self.dealer is not None and not self.chooser_leads and self.leader != self.dealer.left:
            raise RecordError(
                f"game record: leader {self.leader.name} contradicts dealer {self.dealer.name}, "
                f"whose left-hand seat {self.dealer.left.name} leads; when the chooser leads, "
                f"set chooser_leads to true")
        self._check_cards_can_be_played()

    def _check_cards_can_be_played(self) -> None:
        game = self.game()
        for number, card in enumerate(self.played, start=1):
            try:
                game.place(card)
            except IllegalPlayError as err:
                if err.duty == "over":
                    raise RecordError(f"game record: card {number} ({card}) comes after the "
                                      f"end of the round; a round has 32 cards") from None
                raise RecordError(f"game record: card {number}, {err}") from None

    @classmethod
    def from_dict(cls, data: Any) -> "GameRecord":
        if not isinstance(data, dict):
            raise RecordError(f"a game record is a JSON object, got {quote(data)}")
        known = {"deal", "dealer", "trump", "leader", "playing", "rules", "played",
                 "chooser_leads"}
        unknown = sorted((str(k) for k in data if k not in known))
        if unknown:
            raise RecordError(f"unknown field {quote(unknown[0])} in game record; the fields are "
                              f"{', '.join(sorted(known))}")

        def need(name):
            if data.get(name) is None:
                raise RecordError(f"game record has no {name!r} field")
            return data[name]

        def parsed(name, parse, value):
            try:
                return parse(value)
            except SolverError as err:
                raise RecordError(f"game record field {name!r}: {err}") from None

        deal = parsed("deal", Deal.from_pbn, need("deal"))
        dealer = parsed("dealer", Seat.parse, data["dealer"]) if data.get("dealer") is not None else None
        if data.get("leader") is not None:
            leader = parsed("leader", Seat.parse, data["leader"])
        elif dealer is not None:
            leader = dealer.left
        else:
            raise RecordError("game record needs a 'leader' (or a 'dealer': left of it leads)")
        played = data.get("played", [])
        if not isinstance(played, (str, list)):
            raise RecordError(f"game record field 'played' must be a list of cards or a "
                              f"string, got {quote(played)}")
        return cls(deal=deal, trump=parsed("trump", Suit.parse, need("trump")), leader=leader,
                   playing=parsed("playing", Team.parse, need("playing")),
                   rules=parsed("rules", load_rules, data.get("rules", "amsterdam")),
                   played=played, dealer=dealer,
                   chooser_leads=data.get("chooser_leads", False))

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(f"game record is not valid JSON: {err}") from None
        except RecursionError:
            raise RecordError("game record is nested too deeply to be a game record") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: Union[str, Path]) -> "GameRecord":
        """Read a record from a JSON file."""
        return cls.from_json(Path(path).read_text())

    def to_dict(self) -> Dict[str, Any]:
        data = {"deal": self.deal.to_pbn(), "trump": self.trump.name, "leader": self.leader.name,
                "playing": self.playing.name, "rules": self.rules.to_dict(),
                "played": [str(c) for c in self.played]}
        if self.dealer is not None:
            data["dealer"] = self.dealer.name
        if self.chooser_leads:
            data["chooser_leads"] = True
        return data

    def game(self) -> Game:
        """A fresh Game at the start of this round (nothing played)."""
        return Game(self.deal, self.trump, self.leader, self.playing, self.rules)


RULE_PRESETS = {"amsterdam": Rules.amsterdam, "rotterdam": Rules.rotterdam}


def load_rules(value: Any) -> Rules:
    """Rules from a preset name ("amsterdam", "rotterdam"), a dict of options, or a Rules."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        if value.lower() in RULE_PRESETS:
            return RULE_PRESETS[value.lower()]()
        raise RulesError(f"unknown rules preset {quote(value)}: use amsterdam, rotterdam or a dict "
                         f"of options")
    return Rules.from_dict(value)


# -- play analysis ------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayStep:
    """One card of the recorded play, judged double dummy (values from the playing team)."""

    number: int                 # 1..32, the card's place in the play
    trick: int
    seat: Seat
    card: Card
    value_before: int           # the position's value before the card, best play by both
    value_after: int            # the value after this card
    loss: int                   # points the card cost its own side (0 for an optimal card)
    best_cards: List[Card]      # the cards that keep value_before
    values: Dict[Card, int] = field(default_factory=dict)   # every legal card's value

    def to_dict(self) -> Dict[str, Any]:
        return {"number": self.number, "trick": self.trick, "seat": self.seat.name,
                "card": str(self.card), "value_before": self.value_before,
                "value_after": self.value_after, "loss": self.loss,
                "best_cards": [str(c) for c in self.best_cards],
                "values": {str(c): v for c, v in self.values.items()}}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "PlayStep":
        return cls(d["number"], d["trick"], Seat.parse(d["seat"]), Card.parse(d["card"]),
                   d["value_before"], d["value_after"], d["loss"], parse_cards(d["best_cards"]),
                   {Card.parse(c): v for c, v in d.get("values", {}).items()})


@dataclass(frozen=True)
class IllegalCard:
    """The first card of a recorded play that breaks the rules (verzaken)."""

    number: int
    trick: int
    seat: Seat
    card: Card
    duty: str
    message: str

    def to_dict(self) -> Dict[str, Any]:
        return {"number": self.number, "trick": self.trick, "seat": self.seat.name,
                "card": str(self.card), "duty": self.duty, "message": self.message}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "IllegalCard":
        return cls(d["number"], d["trick"], Seat.parse(d["seat"]), Card.parse(d["card"]),
                   d["duty"], d["message"])


@dataclass(frozen=True)
class ActualResult:
    """What the recorded play produced: totals so far, and final scores once it ended."""

    totals: Dict[str, int]
    scores: Optional[Dict[str, int]]        # None while the round is unfinished
    complete: bool
    made: Optional[bool]                     # None while unfinished or after a revoke

    def to_dict(self) -> Dict[str, Any]:
        return {"totals": self.totals, "scores": self.scores, "complete": self.complete,
                "made": self.made}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ActualResult":
        return cls(d["totals"], d["scores"], d["complete"], d["made"])


@dataclass(frozen=True, repr=False)
class PlayAnalysis:
    """Every recorded card judged double dummy (DDS's `analyse_play`)."""

    record: GameRecord
    start_value: int
    makeable: bool
    steps: List[PlayStep]
    illegal: Optional[IllegalCard]
    actual: ActualResult

    def losses(self) -> Dict[str, int]:
        """Points each team gave away with non-optimal cards."""
        lost = {t.name: 0 for t in Team}
        for step in self.steps:
            lost[step.seat.team.name] += step.loss
        return lost

    def summary(self) -> str:
        """Which side lost how many points, where, and whether the bid was makeable."""
        r = self.record
        playing, defenders = r.playing.name, r.playing.other.name
        lines = [f"{playing} plays {r.trump.symbol} ({r.trump.name}), {r.leader.name} leads. "
                 f"Double dummy at the start: {self.start_value:+d} for {playing}, "
                 f"{'makeable' if self.makeable else 'not makeable'}."]
        for team, lost in self.losses().items():
            mistakes = [s for s in self.steps if s.seat.team.name == team and s.loss]
            where = ", ".join(f"trick {s.trick} {s.seat.name} {s.card} (-{s.loss}, best "
                              f"{' '.join(map(str, s.best_cards))})" for s in mistakes)
            lines.append(f"{team} lost {lost} points" + (f": {where}" if where else "."))
        if self.illegal:
            lines.append(f"Illegal card (verzaken): {self.illegal.message}")
        a = self.actual
        totals = f"{playing} {a.totals[playing]}, {defenders} {a.totals[defenders]}"
        if a.scores is None:
            lines.append(f"Unfinished after {len(self.steps)} cards: {totals} so far.")
        else:
            verdict = ("revoke" if self.illegal else "made" if a.made else "nat")
            lines.append(f"Result: {totals} ({verdict}); scores {playing} {a.scores[playing]}, "
                         f"{defenders} {a.scores[defenders]}.")
        return "\n".join(lines)

    def __repr__(self) -> str:
        r, lost = self.record, self.losses()
        return (f"PlayAnalysis({r.playing} plays {r.trump} from {r.leader}, start "
                f"{self.start_value:+d}, {len(self.steps)} cards, lost NS {lost['NS']} EW "
                f"{lost['EW']}, illegal {str(self.illegal.card) if self.illegal else None})")

    def _repr_html_(self) -> str:
        from .report import play_analysis_html
        return play_analysis_html(self)

    def to_dict(self) -> Dict[str, Any]:
        return {"record": self.record.to_dict(), "start_value": self.start_value,
                "makeable": self.makeable, "steps": [s.to_dict() for s in self.steps],
                "illegal": self.illegal.to_dict() if self.illegal else None,
                "actual": self.actual.to_dict()}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "PlayAnalysis":
        return cls(GameRecord.from_dict(d["record"]), d["start_value"], d["makeable"],
                   [PlayStep.from_dict(s) for s in d["steps"]],
                   IllegalCard.from_dict(d["illegal"]) if d["illegal"] else None,
                   ActualResult.from_dict(d["actual"]))


def analyse_play(record: Union[GameRecord, Deal], trump=None, leader=None, playing=None,
                 played: Sequence = (), rules: Optional[Rules] = None,
                 solver: Optional[Solver] = None) -> PlayAnalysis:
    """Judge every card of a recorded play: its value before and after, and what it cost.

    Takes a `GameRecord`, or a deal with trump, leader, playing, played and rules. An illegal
    card is reported in `.illegal` (not raised); the round is then scored by `revoke_penalty`
    and the cards after it are not analysed.
    """
    if isinstance(record, Deal):
        record = GameRecord(record, trump, leader, playing,
                            rules if rules is not None else Rules(), played)
    elif not isinstance(record, GameRecord):
        raise RecordError(f"analyse_play takes a GameRecord, or a Deal with trump, leader, "
                          f"playing and played; got {quote(record)}")
    solver = solver or Solver(record.rules)
    game = record.game()
    start_value = solver.value(game, "points")
    makeable = bool(solver.value(game, "make"))
    steps: List[PlayStep] = []
    illegal = None
    for number, card in enumerate(record.played, start=1):
        seat, trick = game.to_move, game.trick_number
        try:
            game.check(card)
        except IllegalPlayError as err:
            illegal = IllegalCard(number, trick, seat, card, err.duty, str(err))
            break
        values = solver.move_values(game, "points")
        ours = seat.team == game.playing
        before = max(values.values()) if ours else min(values.values())
        after = values[card]
        best = [c for c, v in values.items() if v == before]
        steps.append(PlayStep(number, trick, seat, card, before, after,
                              before - after if ours else after - before, best, values))
        game.play(card)
    return PlayAnalysis(record, start_value, makeable, steps, illegal, _actual(game, illegal))


def _actual(game: Game, illegal: Optional[IllegalCard]) -> ActualResult:
    tallies = game.tallies()
    totals = {t.name: tallies[t].total for t in Team}
    if illegal is not None:
        scores = revoke_scores(illegal.seat.team, game.roem_so_far(), game.rules)
        return ActualResult(totals, {t.name: scores[t] for t in Team}, False, None)
    if not game.is_over:
        return ActualResult(totals, None, False, None)
    scores = final_scores(tallies, game.playing, game.trump, game.rules)
    return ActualResult(totals, {t.name: scores[t] for t in Team}, True,
                        is_made(tallies, game.playing, game.trump, game.rules))


# -- bid analysis -------------------------------------------------------------------------------

PROCEDURES = ("draaikaart", "utrechts", "free", "clubs")
ON_ALL_PASS = ("turned_forced", "dealer_chooses", "left_of_dealer_chooses")


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

    def to_dict(self) -> Dict[str, Any]:
        return {"seat": self.seat.name, "trump": self.trump.name, "leader": self.leader.name,
                "value": self.value, "makeable": self.makeable, "allowed": self.allowed,
                "how": self.how}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "BidOption":
        return cls(Seat.parse(d["seat"]), Suit.parse(d["trump"]), Seat.parse(d["leader"]),
                   d["value"], d["makeable"], d["allowed"], d["how"])


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

    def option(self, seat, trump) -> BidOption:
        seat, trump = Seat.parse(seat), Suit.parse(trump)
        return next(o for o in self.options if o.seat == seat and o.trump == trump)

    def best_trump(self, seat) -> BidOption:
        """The allowed trump with the highest value for `seat`'s team."""
        seat = Seat.parse(seat)
        choices = [o for o in self.options if o.seat == seat and o.allowed]
        if not choices:
            raise SolverError(f"under {self.procedure}, seat {seat.name} may not choose a trump")
        return max(choices, key=lambda o: (o.value, -o.trump))

    def verdict(self) -> Optional[str]:
        """Whether the recorded bid was makeable and which trump the bidder should have chosen."""
        if self.bid is None:
            return None
        seat, trump = self.bid
        chosen, best = self.option(seat, trump), self.best_trump(seat)
        text = (f"{seat.name} chose {trump.name}: {'makeable' if chosen.makeable else 'not makeable'}"
                f" ({chosen.value:+d})")
        if best.trump != trump and best.value > chosen.value:
            text += f"; {best.trump.name} was better ({best.value:+d}, " \
                    f"{'makeable' if best.makeable else 'not makeable'})"
        else:
            text += "; the best choice"
        if not chosen.allowed:
            text += f" (note: {self.procedure} does not let {seat.name} choose {trump.name})"
        return text

    def __str__(self) -> str:
        turned = f", turned {self.turned.name}" if self.turned is not None else ""
        lines = [f"{self.procedure}{turned}, dealer {self.dealer.name}: points for the "
                 f"chooser's team; * makeable; - not open to that seat",
                 "seat" + "".join(f"{s.symbol + ' ' + s.name:>7}  " for s in Suit).rstrip()]
        for seat in Seat:
            cells = []
            for suit in Suit:
                o = self.option(seat, suit)
                cells.append(f"{o.value:>+7d}{'*' if o.makeable else ' '}{' ' if o.allowed else '-'}")
            lines.append(f"{seat.name:<4}" + "".join(cells).rstrip())
        if self.bid is not None:
            lines.append(self.verdict())
        return "\n".join(lines)

    def __repr__(self) -> str:
        bid = f", bid {self.bid[0]} {self.bid[1]}" if self.bid else ""
        return (f"BidAnalysis({self.deal.to_pbn()!r}, {self.procedure}, dealer {self.dealer}"
                f"{bid}: {len(self.options)} options)")

    def _repr_html_(self) -> str:
        from .report import bid_analysis_html
        return bid_analysis_html(self)

    def to_dict(self) -> Dict[str, Any]:
        return {"deal": self.deal.to_pbn(), "dealer": self.dealer.name,
                "rules": self.rules.to_dict(), "procedure": self.procedure,
                "turned": self.turned.name if self.turned is not None else None,
                "options": [o.to_dict() for o in self.options],
                "bid": [self.bid[0].name, self.bid[1].name] if self.bid else None,
                "verdict": self.verdict()}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "BidAnalysis":
        bid = (Seat.parse(d["bid"][0]), Suit.parse(d["bid"][1])) if d.get("bid") else None
        return cls(Deal.from_pbn(d["deal"]), Seat.parse(d["dealer"]), Rules.from_dict(d["rules"]),
                   d["procedure"], Suit.parse(d["turned"]) if d.get("turned") else None,
                   [BidOption.from_dict(o) for o in d["options"]], bid)


def _when_allowed(procedure: str, seat: Seat, trump: Suit, dealer: Seat,
                  turned: Optional[Suit], on_all_pass: str) -> str:
    """When `procedure` lets `seat` play `trump` ("" when never). From the seeds."""
    first = dealer.left
    if procedure == "utrechts":          # left of the dealer chooses and must play
        return "chooses and must play" if seat == first else ""
    if procedure == "free":              # the player to speak chooses any suit
        return "chooses"
    if procedure == "clubs":             # first round of a match: clubs, play or pass
        return "plays clubs" if trump == Suit.C else ""
    if trump == turned:                  # draaikaart: the turned suit is offered first
        if on_all_pass == "turned_forced" and seat == first:
            return "round 1 (forced when all pass)"
        return "round 1"
    forced = {"dealer_chooses": dealer, "left_of_dealer_chooses": first}.get(on_all_pass)
    return "round 2" + (" (forced when all pass)" if seat == forced else "")


def analyse_bidding(deal: Deal, dealer, rules: Optional[Rules] = None,
                    procedure: str = "draaikaart", turned=None, on_all_pass: str = "turned_forced",
                    chooser_leads: bool = False, bid: Optional[Tuple[Any, Any]] = None,
                    solver: Optional[Solver] = None) -> BidAnalysis:
    """For every seat and trump: would that seat's team make it, and by how much.

    The leader is left of the dealer, or the chooser with `chooser_leads` (spelpunt). `bid`,
    e.g. ("N", "H"), is the recorded choice to judge.
    """
    rules = rules if rules is not None else Rules()
    dealer = Seat.parse(dealer)
    if not isinstance(procedure, str) or procedure not in PROCEDURES:
        raise SolverError(f"unknown procedure {quote(procedure)}: choose one of {', '.join(PROCEDURES)}")
    if not isinstance(on_all_pass, str) or on_all_pass not in ON_ALL_PASS:
        raise SolverError(f"unknown on_all_pass {quote(on_all_pass)}: choose one of {', '.join(ON_ALL_PASS)}")
    turned = Suit.parse(turned) if turned is not None else None
    if procedure == "draaikaart" and turned is None:
        raise SolverError("procedure draaikaart needs the turned suit (turned='H', say)")
    if not isinstance(chooser_leads, bool):
        raise SolverError(f"chooser_leads must be true or false, got {quote(chooser_leads)}")
    when = {(seat, trump): _when_allowed(procedure, seat, trump, dealer, turned, on_all_pass)
            for seat in Seat for trump in Suit}
    parsed_bid = _parse_bid(bid)
    if parsed_bid is not None and not any(when[parsed_bid[0], t] for t in Suit):
        seat = parsed_bid[0]
        choosers = [s.name for s in Seat if any(when[s, t] for t in Suit)]
        raise SolverError(f"under {procedure} seat {seat.name} may not choose a trump, so it "
                          f"cannot have bid; {' or '.join(choosers)} chooses")
    solver = solver or Solver(rules)
    options = []
    for seat in Seat:
        for trump in Suit:
            leader = seat if chooser_leads else dealer.left
            game = Game(deal, trump, leader, seat.team, rules)
            how = when[seat, trump]
            options.append(BidOption(seat, trump, leader, solver.value(game, "points"),
                                     bool(solver.value(game, "make")), bool(how), how or "never"))
    return BidAnalysis(deal, dealer, rules, procedure, turned, options, parsed_bid)


def _parse_bid(bid: Any) -> Optional[Tuple[Seat, Suit]]:
    """A recorded bid, (seat, trump) or "N H", as a Seat and a Suit."""
    if bid is None:
        return None
    parts = bid.replace(",", " ").split() if isinstance(bid, str) else bid
    if not isinstance(parts, (list, tuple)) or len(parts) != 2:
        raise SolverError(f"a bid is the seat and the trump it chose, e.g. ('N', 'H'); got {quote(bid)}")
    return Seat.parse(parts[0]), Suit.parse(parts[1])

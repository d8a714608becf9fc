"""Play analysis: every recorded card judged double dummy (DDS's `analyse_play`), and with
worlds single dummy too (`solver.analysis.verdicts`)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..model.cards import (Card, CardsLike, Seat, SeatLike, SuitLike, Team, TeamLike,
                           parse_cards)
from ..model.deal import Deal
from ..model.streams import derive
from ..errors import (DealError, IllegalPlayError, RecordError, choice, quote, reading_fields,
                      whole_number)
from ..model.game import Game
from ..model.players import Player, table_players
from ..model.rules import Rules, check_rules
from ..model.scoring import (Value, final_scores, is_made, revoke_scores, value_for_team,
                             value_unit)
from .parallel import check_solver, solve_all
from ..engine.search import Solver, optimal_cards, warm_solver
from ..model.record import GameRecord
from .verdicts import (MISTAKE_LINE, WORLDS_BATCH, WORLDS_LEAST, WORLDS_MOST, PairedLoss,
                       is_decided, meaning, sd_verdict)
from .beliefs import BeliefLike, belief_name, belief_of
from .view import ViewAnalysis, analyse_view, analyse_view_until
from ..model.worlds import MOST_WORLDS

# What `worlds` accepts besides a number: sample until every verdict is decided.
AUTO = "auto"


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
    # Single dummy (analyse_play with worlds): the mean loss of the card against the best
    # card given what its player could know, compared world by world, and those best cards;
    # None without worlds. [sd_loss_low, sd_loss_high] is its 95% interval (the top is
    # math.inf when one world cannot bound it), over sd_worlds worlds.
    sd_loss: Optional[float] = None
    sd_best_cards: List[Card] = field(default_factory=list)
    sd_loss_low: Optional[float] = None
    sd_loss_high: Optional[float] = None
    sd_worlds: int = 0
    # What the values and losses count: "points", or "tricks" in a ledig round (minus the
    # tricks the bidder takes).
    unit: str = "points"

    @property
    def verdict(self) -> str:
        """Single dummy (`solver.analysis.verdicts`): "optimal"; "unlucky" (a double-dummy
        loss, but as good as the best card given what the player could know); "minor" (at
        95% confidence worse than the single-dummy best card, by less than MISTAKE_POINTS);
        "mistake" (at 95% confidence, at least MISTAKE_POINTS worse than the single-dummy
        best card, MISTAKE_TRICKS in ledig); or "uncertain" (more worlds would decide).
        Without worlds: "optimal" or "loss"."""
        if self.sd_loss is None:
            return "loss" if self.loss else "optimal"
        if self.sd_loss_low is None or self.sd_loss_high is None:
            return "uncertain"      # read from a record of the loss without its interval
        return sd_verdict(self.loss, self.sd_loss, self.sd_loss_low, self.sd_loss_high,
                          MISTAKE_LINE[self.unit])

    @property
    def verdict_meaning(self) -> str:
        """The verdict in words, e.g. "uncertain: more worlds would decide"."""
        return meaning(self.verdict, self.unit)

    @property
    def sd_loss_text(self) -> str:
        """The single-dummy loss with its 95% interval, "2.8 [0.0, 9.1]" ("" without worlds)."""
        if self.sd_loss is None:
            return ""
        if self.sd_loss_low is None or self.sd_loss_high is None:
            return f"{self.sd_loss:.1f}"
        return f"{self.sd_loss:.1f} [{self.sd_loss_low:.1f}, {self.sd_loss_high:.1f}]"

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {
            "number": self.number, "trick": self.trick, "seat": self.seat.name,
            "card": str(self.card), "value_before": self.value_before,
            "value_after": self.value_after, "loss": self.loss,
            "best_cards": [str(c) for c in self.best_cards],
            "values": {str(c): v for c, v in self.values.items()}}
        if self.unit != "points":
            data["unit"] = self.unit
        if self.sd_loss is not None:
            high = self.sd_loss_high
            data.update(sd_loss=self.sd_loss, sd_loss_low=self.sd_loss_low,
                        # JSON has no infinity: null is "not bounded"
                        sd_loss_high=None if high is None or math.isinf(high) else high,
                        sd_best_cards=[str(c) for c in self.sd_best_cards],
                        sd_worlds=self.sd_worlds, verdict=self.verdict)
        return data

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "PlayStep":
        with reading_fields("a play step", d):
            return cls(d["number"], d["trick"], Seat.parse(d["seat"]), Card.parse(d["card"]),
                       d["value_before"], d["value_after"], d["loss"], parse_cards(d["best_cards"]),
                       {Card.parse(c): v for c, v in d.get("values", {}).items()},
                       d.get("sd_loss"), parse_cards(d.get("sd_best_cards", [])),
                       d.get("sd_loss_low"), _high(d), d.get("sd_worlds", 0),
                       choice("unit", d.get("unit", "points"), tuple(MISTAKE_LINE)))


def _high(d: Dict[str, Any]) -> Optional[float]:
    """sd_loss_high as written by `to_dict`: null with a low bound is "not bounded"."""
    if d.get("sd_loss_high") is not None:
        return float(d["sd_loss_high"])
    return math.inf if d.get("sd_loss_low") is not None else None


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
        with reading_fields("an illegal card", d):
            return cls(d["number"], d["trick"], Seat.parse(d["seat"]), Card.parse(d["card"]),
                       d["duty"], d["message"])


@dataclass(frozen=True)
class ActualResult:
    """What the recorded play produced: totals so far (in a ledig round the tricks each team
    took), and final scores once it ended."""

    totals: Dict[str, int]
    scores: Optional[Dict[str, int]]        # None while the round is unfinished
    complete: bool
    made: Optional[bool]                     # None while unfinished or after a revoke

    def to_dict(self) -> Dict[str, Any]:
        return {"totals": self.totals, "scores": self.scores, "complete": self.complete,
                "made": self.made}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ActualResult":
        with reading_fields("an actual result", d):
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
    # How the single-dummy worlds were drawn (solver.analysis.beliefs): "uniform" or "play".
    belief: str = "uniform"

    @property
    def unit(self) -> str:
        """What values and losses count: "points", or "tricks" in a ledig round."""
        return value_unit(self.record.rules, "points")

    @property
    def bidder_first_trick(self) -> Optional[int]:
        """In a ledig round, the number of the first trick the bidder took in the recorded
        play, where ledig went down; None when it took none (or in a trump round)."""
        bidder = self.record.bidder
        if bidder is None:
            return None
        game = self.record.game()
        game.replay(step.card for step in self.steps)
        return next((t.number for t in game.tricks if t.winner == bidder), None)

    def losses(self) -> Dict[str, int]:
        """Points each team gave away with non-optimal cards (tricks, in a ledig round)."""
        lost = {t.name: 0 for t in Team}
        for step in self.steps:
            lost[step.seat.team.name] += step.loss
        return lost

    def players(self) -> List[Player]:
        """The people at the table and the hands each plays (`solver.model.players`): four,
        or under `players=3` the chooser (with the dummy) and two defenders, or under
        `players=2` two players; with their names when the record gives them."""
        r = self.record
        return table_players(r.rules, r.playing, r.dummy, r.players)

    def player_scores(self) -> Optional[List[Tuple[Player, int]]]:
        """Each player with his score for the round: his team's final score (the chooser the
        playing team's, each defender the defenders'); None while the round is unfinished.

        >>> from dataclasses import replace
        >>> from solver import Rules, Seat
        >>> record = GameRecord.load("examples/game.json")       # EW plays, W chooses
        >>> three = replace(record, rules=Rules(players=3), dummy=Seat.E)
        >>> [(p.label, score) for p, score in analyse_play(three).player_scores()]
        [('W (chooser, with dummy E)', 179), ('N (defender)', 43), ('S (defender)', 43)]
        """
        if self.actual.scores is None:
            return None
        return [(p, self.actual.scores[p.team.name]) for p in self.players()]

    def summary(self, notation: str = "en", symbols: bool = False) -> str:
        """Which side lost how many points, where, and whether the bid was makeable; cards in
        `notation`, with suit symbols when `symbols` ("♠B" for the jack of spades in "nl")."""
        def show(cards: List[Card]) -> str:
            return " ".join(c.to_str(symbols, notation) for c in cards)

        r = self.record
        playing, defenders = r.playing.name, r.playing.other.name
        if r.bidder is not None:
            lines = [_ledig_head(self, notation)]
        else:
            assert r.trump is not None      # a trump round always has one
            lines = [f"{playing} plays {r.trump.symbol} ({r.trump.letter_in(notation)}), "
                     f"{r.leader.name} leads. Double dummy at the start: "
                     f"{self.start_value:+d} for {playing}, "
                     f"{'makeable' if self.makeable else 'not makeable'}."]
        who = self._who()
        for team, lost in self.losses().items():
            mistakes = [s for s in self.steps if s.seat.team.name == team and s.loss]
            where = ", ".join(f"trick {s.trick} {who[s.seat]} {show([s.card])} (-{s.loss}, "
                              f"best {show(s.best_cards)})" for s in mistakes)
            lines.append(_team_loss(self, team, lost) + (f": {where}" if where else "."))
        if any(s.sd_loss is not None for s in self.steps):
            lines += self._single_dummy_lines(show, who)
        if self.illegal:
            lines.append(f"Illegal card (verzaken): {self.illegal.message}")
        a = self.actual
        if r.bidder is not None:
            lines.append(_ledig_result(self))
            return "\n".join(lines + self._player_scores_lines())
        totals = f"{playing} {a.totals[playing]}, {defenders} {a.totals[defenders]}"
        if a.scores is None:
            lines.append(f"Unfinished after {len(self.steps)} cards: {totals} so far.")
        else:
            verdict = ("revoke" if self.illegal else "made" if a.made else "nat")
            lines.append(f"Result: {totals} ({verdict}); scores {playing} {a.scores[playing]}, "
                         f"{defenders} {a.scores[defenders]}.")
            lines += self._player_scores_lines()
        return "\n".join(lines)

    def _who(self) -> Dict[Seat, str]:
        """Each seat as the summary names it: "S", or with the record's name of the player who
        plays that hand, "S (Anna)"."""
        players = self.players()
        names = {seat: next(p.name for p in players if seat in p.seats) for seat in Seat}
        return {seat: f"{seat.name} ({names[seat]})" if names[seat] else seat.name
                for seat in Seat}

    def shown_player_scores(self) -> List[Tuple[Player, int]]:
        """`player_scores` where a summary or report shows them: at a table of three or two,
        or when the record names the players, in a trump or a ledig round (else []).

        >>> analyse_play(GameRecord.load("examples/game.json")).shown_player_scores()
        []
        """
        scores = self.player_scores()
        if not scores or (self.record.rules.players == 4 and not self.record.players):
            return []
        return scores

    def _player_scores_lines(self) -> List[str]:
        scores = self.shown_player_scores()
        return ["Per player: " + ", ".join(f"{p.label} {score}" for p, score in scores)
                + "."] if scores else []

    def _single_dummy_lines(self, show: Callable[[List[Card]], str],
                            who: Dict[Seat, str]) -> List[str]:
        """The mistakes, minor losses, uncertain and unlucky cards, each expected loss with its
        95% interval in brackets."""
        unit = self.unit
        heads = {"mistake": f"Mistakes (at 95% confidence, at least {MISTAKE_LINE[unit]:g} "
                            f"{unit} worse than the single-dummy best card)",
                 "minor": f"Small losses (at 95% confidence worse than the single-dummy best "
                          f"card, by less than {MISTAKE_LINE[unit]:g} {unit})",
                 "uncertain": "Uncertain (more worlds would decide)",
                 "unlucky": "Unlucky (a double-dummy loss, but as good as the best card given "
                            "what the player could know)"}
        lines = []
        for verdict, head in heads.items():
            steps = [s for s in self.steps if s.verdict == verdict]
            where = ", ".join(
                f"trick {s.trick} {who[s.seat]} {show([s.card])} (-{s.loss}; expected loss "
                f"{s.sd_loss_text})" if verdict == "unlucky" else
                f"trick {s.trick} {who[s.seat]} {show([s.card])} (expected loss "
                f"{s.sd_loss_text}, best {show(s.sd_best_cards)})" for s in steps)
            if steps or verdict not in ("uncertain", "minor"):
                lines.append(f"{head}: {where or 'none'}.")
        return lines

    def __repr__(self) -> str:
        r, lost = self.record, self.losses()
        what = f"{r.bidder} bids ledig" if r.bidder is not None else f"{r.playing} plays {r.trump}"
        return (f"PlayAnalysis({what} from {r.leader}, start "
                f"{self.start_value:+d}, {len(self.steps)} cards, lost NS {lost['NS']} EW "
                f"{lost['EW']}, illegal {str(self.illegal.card) if self.illegal else None})")

    def _repr_html_(self) -> str:
        from ..html.jupyter import play_analysis_html
        return play_analysis_html(self)

    def to_dict(self) -> Dict[str, Any]:
        scores = self.player_scores()
        data = {"record": self.record.to_dict(), "start_value": self.start_value,
                "makeable": self.makeable, "steps": [s.to_dict() for s in self.steps],
                "illegal": self.illegal.to_dict() if self.illegal else None,
                "actual": self.actual.to_dict(),
                # Derived from the record and the scores: from_dict does not read it.
                "players": [p.to_dict(None if scores is None else scores[i][1])
                            for i, p in enumerate(self.players())]}
        if self.record.bidder is not None:      # worked out from the record when read back
            data["bidder_first_trick"] = self.bidder_first_trick
        if any(step.sd_worlds for step in self.steps):
            data["belief"] = self.belief
        return data

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "PlayAnalysis":
        with reading_fields("a play analysis", d):
            return cls(GameRecord.from_dict(d["record"]), d["start_value"], d["makeable"],
                       [PlayStep.from_dict(s) for s in d["steps"]],
                       IllegalCard.from_dict(d["illegal"]) if d["illegal"] else None,
                       ActualResult.from_dict(d["actual"]), d.get("belief", "uniform"))


def _count(number: int, unit: str) -> str:
    """"1 trick", "3 tricks", "20 points"."""
    return f"{number} {unit[:-1] if number == 1 else unit}"


def _team_loss(analysis: PlayAnalysis, team: str, lost: int) -> str:
    """What a team's cards cost: "NS lost 20 points"; in ledig, where the cost is tricks the
    bidder takes, "NS gave the bidder 1 trick more than best play" (the bidder's team) or "EW
    let the bidder take 1 trick fewer than best play" (the defenders); "EW's cards cost nothing
    against best play" when its cards cost nothing."""
    bidder = analysis.record.bidder
    if not lost:
        return f"{team}'s cards cost nothing against best play"
    if bidder is None:
        return f"{team} lost {_count(lost, analysis.unit)}"
    tricks = _count(lost, "tricks")
    if bidder.team.name == team:
        return f"{team} gave the bidder {tricks} more than best play"
    return f"{team} let the bidder take {tricks} fewer than best play"


def _ledig_head(analysis: PlayAnalysis, notation: str = "en") -> str:
    """The first line of a ledig summary: who bid, who leads, and the double-dummy start."""
    r = analysis.record
    assert r.bidder is not None
    trump = (f"trump {r.trump.symbol} ({r.trump.letter_in(notation)})" if r.trump is not None
             else "no trump")
    start = ("the bidder takes no trick, makeable" if analysis.makeable else
             f"{r.bidder.name} takes {_count(-analysis.start_value, 'tricks')}, not makeable")
    return (f"{r.bidder.name} bids ledig ({trump}), {r.leader.name} leads. Double dummy at the "
            f"start: {analysis.start_value:+d} for {r.playing.name} ({start}).")


def _ledig_result(analysis: PlayAnalysis) -> str:
    """The last line of a ledig summary: the bidder's tricks, its first, and the scores."""
    r, a = analysis.record, analysis.actual
    assert r.bidder is not None
    first = analysis.bidder_first_trick
    took = (f"{r.bidder.name} took no trick" if first is None else
            f"{r.bidder.name} took its first trick at trick {first}")
    if a.scores is None:
        return f"Unfinished after {len(analysis.steps)} cards: {took} so far."
    verdict = "revoke" if analysis.illegal else "made" if a.made else "failed"
    scores = ", ".join(f"{team} {score}" for team, score in a.scores.items())
    return f"Result: {took} (ledig {verdict}); scores {scores}."


def analyse_play(record: Union[GameRecord, Deal], trump: Optional[SuitLike] = None,
                 leader: Optional[SeatLike] = None, playing: Optional[TeamLike] = None,
                 played: CardsLike = (), rules: Optional[Rules] = None,
                 solver: Optional[Solver] = None, worlds: Union[int, str] = 0, seed: int = 0,
                 workers: Optional[int] = None, *, bidder: Optional[SeatLike] = None,
                 dummy: Optional[SeatLike] = None,
                 belief: BeliefLike = "uniform") -> PlayAnalysis:
    """Judge every card of a recorded play: its value before and after, and what it cost.

    Takes a `GameRecord`, or a deal with trump, leader, playing, played and rules (and for
    ledig the `bidder`, under `players=3` the `dummy` seat; a record names its own). In a
    ledig round values and losses are tricks (minus the tricks the bidder takes), and
    `bidder_first_trick` is where ledig went down. An illegal
    card is reported in `.illegal` (not raised); the round is then scored by `revoke_penalty`
    and the cards after it are not analysed.

    The positions are solved on `workers` threads (default: all cores; a `solver` given is
    used alone). With `worlds`, each card is also judged single dummy: over that many deals
    its player could not tell from the real one (`analyse_view`, seeded from `seed` and the
    card's number), each legal card valued in the same worlds and the played card compared
    with the best one world by world. Every step then has `sd_loss` with its 95% interval
    (`sd_loss_low`, `sd_loss_high`), `sd_best_cards` and a single-dummy `verdict`.
    `worlds="auto"` samples WORLDS_BATCH (32) worlds at a time until the card's verdict is
    decided (on at least 64 worlds), at most WORLDS_MOST (512): a decided verdict then does
    not depend on the seed, but for a 2.5% error. `belief` says how those worlds are drawn:
    "uniform" (the default), or "play", in proportion to how likely the other players' cards
    so far were in each (`solver.analysis.beliefs`); the analysis keeps its name (`belief`).
    """
    if isinstance(record, Deal):
        # Game checks the deal form's arguments as every entry point does (a trump, leader or
        # playing team left out is refused like any wrong value); the record then parses and
        # checks the play, naming a bad card as a RecordError.
        start = Game(record, trump, leader, playing, check_rules(rules), bidder=bidder,
                     dummy=dummy)
        record = GameRecord(start.deal, start.trump, start.leader, start.playing, start.rules,
                            played, bidder=start.bidder,  # type: ignore[arg-type]
                            dummy=start.dummy)
    elif isinstance(record, GameRecord) and (dummy is not None or bidder is not None):
        name, seat = ("dummy", dummy) if dummy is not None else ("bidder", bidder)
        raise RecordError(f"{name}={quote(seat)} is for the deal form: analyse_play takes "
                          f"{name}= only with a Deal; a GameRecord names its own {name!r} "
                          f"(replace(record, {name}=...))")
    elif not isinstance(record, GameRecord):
        given_as_deal = any(arg is not None for arg in (trump, leader, playing, bidder, dummy))
        raise (DealError if given_as_deal else RecordError)(
            f"analyse_play takes a GameRecord, or a Deal with trump, leader, playing and "
            f"played; got {quote(record)}")
    worlds = check_worlds(worlds)
    seed = whole_number("seed", seed)
    belief = belief_of(belief) if belief != "uniform" else belief   # checked before the work
    game = record.game()
    unit = value_unit(record.rules, "points")
    first = check_solver(solver) or warm_solver(record.rules)
    start_value, makeable = first.value_and_make(game)
    illegal = None
    # (number, trick, seat, card, the position before the card)
    before: List[Tuple[int, int, Seat, Card, Game]] = []
    for number, card in enumerate(record.played, start=1):
        seat, trick = game.to_move, game.trick_number
        try:
            game.check(card)
        except IllegalPlayError as err:
            assert err.duty is not None     # Game.check names the duty of every refusal
            illegal = IllegalCard(number, trick, seat, card, err.duty, str(err))
            break
        before.append((number, trick, seat, card, game.copy()))
        game.play(card)

    def judge(solver: Solver, step: Tuple[int, int, Seat, Card, Game]) -> Dict[Card, Value]:
        return solver.move_values(step[4], "points")

    # Every position is known from the record: they are judged independently, on all cores.
    all_values = solve_all(judge, before, record.rules, workers, solver)
    steps: List[PlayStep] = []
    for (number, trick, seat, card, position), values in zip(before, all_values):
        mover = {c: value_for_team(v, seat.team, record.playing) for c, v in values.items()}
        best = optimal_cards(mover)
        dd_loss = mover[best[0]] - mover[card]
        sd = (_single_dummy(position, card, dd_loss, worlds, derive(seed, number), workers,
                            MISTAKE_LINE[unit], belief) if worlds else None)
        steps.append(PlayStep(number, trick, seat, card, values[best[0]], values[card],
                              dd_loss, best, values, *_sd_fields(sd), unit=unit))
    return PlayAnalysis(record, start_value, makeable, steps, illegal, _actual(game, illegal),
                        belief_name(belief))


def check_worlds(worlds: Union[int, str]) -> Union[int, str]:
    """`worlds` of `analyse_play`: a whole number >= 0 or "auto"."""
    if isinstance(worlds, str):
        return choice("worlds", worlds, (AUTO,))
    return whole_number("worlds", worlds, 0, MOST_WORLDS)


def _single_dummy(position: Game, card: Card, dd_loss: int, worlds: Union[int, str],
                  seed: int, workers: Optional[int],
                  line: float = MISTAKE_LINE["points"],
                  belief: BeliefLike = "uniform") -> PairedLoss:
    """The played card against the best card, over `worlds` worlds (drawn under `belief`) or
    as many as decide (a verdict against the mistake `line`)."""
    if worlds == AUTO:
        def decided(view: ViewAnalysis) -> bool:
            return (len(view.worlds) >= WORLDS_LEAST
                    and is_decided(dd_loss, view.paired_loss(card), line))
        view = analyse_view_until(position, decided, WORLDS_BATCH, WORLDS_MOST, seed,
                                  workers=workers, belief=belief)
    else:
        view = analyse_view(position, worlds=int(worlds), seed=seed, workers=workers,
                            belief=belief)
    return view.paired_loss(card)


def _sd_fields(sd: Optional[PairedLoss]) -> Tuple[Optional[float], List[Card], Optional[float],
                                                 Optional[float], int]:
    """PlayStep's single-dummy fields, in their order."""
    if sd is None:
        return None, [], None, None, 0
    return sd.loss, sd.best_cards, sd.low, sd.high, sd.worlds


def _actual(game: Game, illegal: Optional[IllegalCard]) -> ActualResult:
    if game.bidder is not None:
        return _ledig_actual(game, illegal)
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


def _ledig_actual(game: Game, illegal: Optional[IllegalCard]) -> ActualResult:
    """A ledig round's result: the tricks each team took so far (its totals: nothing but
    tricks counts), and once over (or at a revoke) the scores and whether the bidder took no
    trick."""
    totals = {t.name: n for t, n in game.tricks_won().items()}
    if illegal is not None:
        scores = revoke_scores(illegal.seat.team, game.roem_so_far(), game.rules)
        return ActualResult(totals, {t.name: scores[t] for t in Team}, False, None)
    if not game.is_over:
        return ActualResult(totals, None, False, None)
    scores = game.final_scores()
    return ActualResult(totals, {t.name: scores[t] for t in Team}, True,
                        game.bidder_tricks() == 0)

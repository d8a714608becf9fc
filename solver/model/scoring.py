"""From what each team took to the final score: hand roem, pit, nat, kraken, verzaken; and the
values of the objectives, seen from either team.

Everything here follows docs/rules.md, "Roem", "Pit, nat and the score" and "What the solver
computes". The engine mirrors these functions in C, and tests hold the two equal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, Mapping, Optional, Tuple, Union, overload

from .cards import CARD_POINTS_TOTAL, ByTeam, Card, Rank, Suit, Team
from ..errors import SolverError, quote
from .rules import MAKE_THRESHOLD, Rules

OBJECTIVES = ("points", "score", "make")

# A value of an objective: a whole number for points and score, a bool for make.
Value = Union[int, bool]


def check_objective(objective: object) -> None:
    """A clear error for anything but one of OBJECTIVES."""
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise SolverError(f"unknown objective {quote(objective)}: choose one of {', '.join(OBJECTIVES)}")


@overload
def value_for_team(value: bool, team: Team, playing: Team) -> bool: ...
@overload
def value_for_team(value: int, team: Team, playing: Team) -> int: ...
def value_for_team(value: Value, team: Team, playing: Team) -> Value:
    """A value seen from the playing team (as every search gives it), seen from `team`:
    points and score change sign for the defenders; a `make` value (True when the playing team
    makes it) becomes whether `team` reaches its aim, the defenders' aim being nat. Applied
    twice it gives the value back.

    >>> value_for_team(12, Team.EW, Team.NS), value_for_team(True, Team.EW, Team.NS)
    (-12, False)
    """
    ours = team == playing
    if isinstance(value, bool):
        return value == ours
    return value if ours else -value


@dataclass(frozen=True)
class Tally:
    """What one team has: card points (with the last trick), roem, and the pit bonus."""

    card_points: int = 0
    roem: int = 0
    pit: int = 0

    @property
    def total(self) -> int:
        """Card points, roem and pit together."""
        return self.card_points + self.roem + self.pit


def point_factor(rules: Rules, trump: Optional[Suit]) -> int:
    """2 when `trump` is one of `rules.double_suits` (schoppen dubbel), else 1 (no trump too)."""
    return 2 if trump is not None and rules.is_double(trump) else 1


def card_points_to_make(rules: Rules, trump: Optional[Suit]) -> int:
    """The card points, last trick included, the playing team needs under nat="82": 82, or
    164 when `trump` counts double."""
    return MAKE_THRESHOLD * point_factor(rules, trump)


def make_is_points_above_zero(rules: Rules) -> bool:
    """Whether `make` is exactly `points > 0` under these rules (all but nat="82" without
    kraken, where card points alone decide): then a points value answers it without a search.

    >>> make_is_points_above_zero(Rules()), make_is_points_above_zero(Rules(nat="82"))
    (True, False)
    """
    if rules.contract == "ledig":
        return False    # made is points == 0: the bidder takes no trick
    return not (rules.nat == "82" and rules.multiplier == 1)


def make_line(rules: Rules, objective: str) -> Optional[int]:
    """The least `objective` value, seen from the playing team, with which it makes it, where
    that value alone decides it; None where it does not (the make is then searched). `make`
    is its own answer (1); `points` decide it wherever make_is_points_above_zero (above 0);
    in ledig the points decide it (0: the bidder took no trick), and so does the score while
    ledig_bonus is above 0 (+ledig_bonus, else -ledig_bonus).

    >>> make_line(Rules(), "points"), make_line(Rules(nat="82"), "points")
    (1, None)
    >>> make_line(Rules(contract="ledig", ledig_bonus=0), "score") is None
    True
    """
    if objective == "make":
        return 1
    if rules.contract == "ledig":
        return 0 if objective == "points" or rules.ledig_bonus > 0 else None
    return 1 if objective == "points" and make_is_points_above_zero(rules) else None


def value_unit(rules: Rules, objective: str) -> str:
    """What a value of `objective` counts under `rules`: "points" (card points, roem and pit,
    or the score), "tricks" for the points of a ledig round (minus the bidder's tricks), or
    "made" for `make` (True or False).

    >>> value_unit(Rules(), "points"), value_unit(Rules(contract="ledig"), "points")
    ('points', 'tricks')
    """
    check_objective(objective)
    if objective == "make":
        return "made"
    return "tricks" if objective == "points" and rules.contract == "ledig" else "points"


# -- roem in hand ---------------------------------------------------------------------------

def _run_value(length: int) -> int:
    return 0 if length < 3 else 20 if length == 3 else 50 if length == 4 else 100


def _best_split(length: int) -> int:
    """Most roem from a run of `length` cards cut into pieces (a card counts once)."""
    best = [0] * (length + 1)
    for n in range(1, length + 1):
        best[n] = max([best[n - 1]] + [_run_value(k) + best[n - k] for k in range(3, n + 1)])
    return best[length]


def hand_roem(hand: Iterable[Card], trump: Optional[Suit], rules: Rules) -> Tuple[int, int]:
    """(combinations, stuk) that one dealt hand declares under `roem="hand"`.

    Four of a kind goes first; the remaining cards form runs in natural order, split the
    best way. Stuk (trump K and Q) is apart because it is never rejected ("afkeuren").

    >>> from solver.model.cards import parse_cards
    >>> hand_roem(parse_cards("H7 H8 H9 HT HJ SK SQ CA"), Suit.S, Rules(roem="hand"))
    (100, 20)
    """
    cards = set(hand)
    combos = 0
    for rank in Rank:
        four = {Card(suit, rank) for suit in Suit}
        value = rules.four_of_a_kind_value(rank)
        if value and four <= cards:
            combos += value
            cards -= four
    for suit in Suit:
        run = 0
        for rank in [*Rank, None]:
            if rank is not None and Card(suit, rank) in cards:
                run += 1
            else:
                combos += _best_split(run)
                run = 0
    stuk = 20 if trump is not None and rules.stuk != "none" and {Card(trump, Rank.KING), Card(trump, Rank.QUEEN)} <= set(hand) else 0
    return combos, stuk


def counted_hand_roem(hands: Mapping[Team, Iterable[Iterable[Card]]], trump: Optional[Suit], rules: Rules,
                      tricks_won: Mapping[Team, int]) -> Dict[Team, int]:
    """Each team's hand roem after afkeuren: the team with less loses it; a tie keeps both.

    `hands` maps a team to its two dealt hands. With `hand_roem_needs_trick`, a team that
    took no trick declares nothing (stuk included) before the comparison.
    """
    if rules.roem != "hand":
        return {Team.NS: 0, Team.EW: 0}
    combos, stuk = {}, {}
    for team in Team:
        parts = [hand_roem(h, trump, rules) for h in hands[team]]
        combos[team] = sum(p[0] for p in parts)
        stuk[team] = sum(p[1] for p in parts)
        if rules.hand_roem_needs_trick and tricks_won[team] == 0:
            combos[team] = stuk[team] = 0
    for team in Team:
        if combos[team] < combos[team.other]:
            combos[team] = 0
    return {team: combos[team] + stuk[team] for team in Team}


# -- end of the round -----------------------------------------------------------------------

def pit_bonus(team: Team, tricks_won: Mapping[Team, int], playing: Team, rules: Rules) -> int:
    """The pit (mars) bonus `team` earns for winning all 8 tricks, if the rules give one."""
    if tricks_won[team] != 8 or rules.pit == "none":
        return 0
    if rules.pit == "playing" and team != playing:
        return 0
    return rules.pit_bonus


def is_made(tallies: Mapping[Team, Tally], playing: Team, trump: Optional[Suit], rules: Rules) -> bool:
    """Whether the playing team avoids nat (or, under kraken, wins the contest)."""
    play, defence = tallies[playing], tallies[playing.other]
    if make_is_points_above_zero(rules):
        return play.total > defence.total
    return play.card_points >= card_points_to_make(rules, trump)


def final_scores(tallies: Mapping[Team, Tally], playing: Team, trump: Optional[Suit],
                 rules: Rules) -> ByTeam:
    """Each team's score for the round: nat, kraken and the zero bonus applied, keyed by
    `Team` (a team's letters read the same entry, as in `SolveResult.totals`)."""
    play, defence = tallies[playing], tallies[playing.other]
    made = is_made(tallies, playing, trump, rules)
    # Winner takes all: every card point (multiplied), every roem and pit of both teams.
    pot = (CARD_POINTS_TOTAL * rules.multiplier * point_factor(rules, trump)
           + play.roem + play.pit + defence.roem + defence.pit)
    if rules.multiplier > 1 or (rules.nat != "none" and not made):
        winner = playing if made else playing.other
        scores = ByTeam({winner: pot, winner.other: 0})
    else:
        scores = ByTeam({playing: play.total, playing.other: defence.total})
    if made and defence.total == 0:
        scores[playing] += rules.zero_bonus
    return scores


def revoke_scores(offender: Team, roem_so_far: int, rules: Rules) -> ByTeam:
    """Verzaken: the round ends; the offenders score 0, the others 162 + penalty + all roem."""
    return ByTeam({offender: 0,
                   offender.other: CARD_POINTS_TOTAL + rules.revoke_penalty + roem_so_far})


# -- ledig ------------------------------------------------------------------------------------

def ledig_scores(bidder_tricks: int, playing: Team, rules: Rules) -> ByTeam:
    """Each team's score for a finished ledig round (docs/rules.md, "Ledig"): `ledig_bonus`
    to the bidder's team (`playing`) when the bidder took no trick, else to the other team.

    >>> ledig_scores(0, Team.NS, Rules(contract="ledig")).to_dict()
    {'NS': 50, 'EW': 0}
    """
    winner = playing if bidder_tricks == 0 else playing.other
    return ByTeam({winner: rules.ledig_bonus, winner.other: 0})


def ledig_value(objective: str, bidder_tricks: int, rules: Rules) -> Value:
    """The value of a finished ledig round for one objective, from the bidder's team: points
    is minus the tricks the bidder took, score plus or minus `ledig_bonus`, make whether the
    bidder took none.

    >>> [ledig_value(o, 2, Rules(contract="ledig")) for o in ("points", "score", "make")]
    [-2, -50, False]
    """
    check_objective(objective)
    if objective == "points":
        return -bidder_tricks
    if objective == "score":
        return rules.ledig_bonus if bidder_tricks == 0 else -rules.ledig_bonus
    return bidder_tricks == 0


def objective_value(objective: str, tallies: Mapping[Team, Tally], playing: Team, trump: Optional[Suit],
                    rules: Rules) -> Value:
    """The value of a finished round for one objective (docs/rules.md, "What the solver
    computes"), from the playing team."""
    defenders = playing.other
    if objective == "points":
        return tallies[playing].total - tallies[defenders].total
    if objective == "score":
        scores = final_scores(tallies, playing, trump, rules)
        return scores[playing] - scores[defenders]
    check_objective(objective)
    return is_made(tallies, playing, trump, rules)

"""The bidding procedures: who may choose which trump, in which order; and draaikaart's turned
card and passes, one call at a time (`Draaikaart`). What each choice is worth is the bid
analysis' (`solver.analysis.bidding`); this module only says what the procedure allows.

>>> bidding = Draaikaart(dealer=Seat.W, turned=Suit.S)
>>> bidding.to_speak(), bidding.choices()
(<Seat.N: 0>, [None, <Suit.S: 3>])
>>> bidding.call(None); bidding.call(Suit.S)
>>> bidding.chosen
(<Seat.E: 1>, <Suit.S: 3>)
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from ..errors import SolverError, choice
from .cards import Seat, Suit

PROCEDURES = ("draaikaart", "utrechts", "free", "clubs")
ON_ALL_PASS = ("turned_forced", "dealer_chooses", "left_of_dealer_chooses")


def forced_seat(dealer: Seat, on_all_pass: str) -> Seat:
    """Under draaikaart, the seat that must choose when all pass: left of the dealer (the
    turned suit under "turned_forced", another trump under "left_of_dealer_chooses"), or
    the dealer ("dealer_chooses")."""
    return dealer if on_all_pass == "dealer_chooses" else dealer.left


def allowed_when(procedure: str, seat: Seat, trump: Suit, dealer: Seat,
                 turned: Optional[Suit], on_all_pass: str) -> str:
    """When `procedure` lets `seat` choose `trump`: "round 1", "round 2 (forced when all
    pass)", "chooses", ...; "" when never. From the seeds."""
    first = dealer.left
    if procedure == "utrechts":          # left of the dealer chooses and must play
        return "chooses and must play" if seat == first else ""
    if procedure == "free":              # the player to speak chooses any suit
        return "chooses"
    if procedure == "clubs":             # first round of a match: clubs, play or pass
        return "plays clubs" if trump == Suit.C else ""
    forced = seat == forced_seat(dealer, on_all_pass)
    if trump == turned:                  # draaikaart: the turned suit is offered first
        if on_all_pass == "turned_forced" and forced:
            return "round 1 (forced when all pass)"
        return "round 1"
    if on_all_pass != "turned_forced" and forced:
        return "round 2 (forced when all pass)"
    return "round 2"


class Draaikaart:
    """Draaikaart bidding, one call at a time (a call is a suit, or None to pass).

    Round 1: in turn from left of the dealer, each seat passes or plays the turned suit.
    Round 2, when all four passed: in the same order each seat passes or names another trump.
    When all pass again, `on_all_pass` decides: under "turned_forced" left of the dealer plays
    the turned suit; under "dealer_chooses" the dealer, the last to speak, may not pass; under
    "left_of_dealer_chooses" left of the dealer speaks once more, and must name one. The first
    seat to choose sets trump, and its team plays.

    Without `second_round` (OpenSpiel's game, whose bidders only pass or play) there is no
    round 2: when all four pass, left of the dealer plays the turned suit ("turned_forced").
    """

    def __init__(self, dealer: Seat, turned: Suit, on_all_pass: str = "turned_forced",
                 second_round: bool = True) -> None:
        choice("on_all_pass", on_all_pass, ON_ALL_PASS)
        if not second_round and on_all_pass != "turned_forced":
            raise SolverError(f"draaikaart without a second round forces the turned suit when "
                              f"all pass: on_all_pass must be 'turned_forced', not "
                              f"{on_all_pass!r}")
        self.dealer, self.turned = Seat.parse(dealer), Suit.parse(turned)
        self.on_all_pass, self.second_round = on_all_pass, second_round
        self.calls: List[Tuple[Seat, Optional[Suit]]] = []     # (seat, suit or None: passed)
        self.chosen: Optional[Tuple[Seat, Suit]] = None        # (chooser, trump) once set

    @property
    def round(self) -> int:
        """The round of the call to come (once trump is chosen, of the last call): 1 while the
        turned suit is offered, else 2."""
        made = len(self.calls) - (self.chosen is not None)
        return 1 if made < 4 else 2

    def to_speak(self) -> Optional[Seat]:
        """The seat whose call it is; None once trump is chosen."""
        if self.chosen is not None:
            return None
        return Seat((self.dealer.left + len(self.calls)) % 4)

    def choices(self) -> List[Optional[Suit]]:
        """The calls open to the seat to speak: None (pass) first, unless it must choose, then
        the suits in order; empty once trump is chosen."""
        seat = self.to_speak()
        if seat is None:
            return []
        if self.round == 1:
            return [None, self.turned]
        others: List[Optional[Suit]] = [s for s in Suit if s != self.turned]
        must = len(self.calls) == 8 or (self.on_all_pass == "dealer_chooses"
                                        and seat == self.dealer)
        return others if must else [None, *others]

    def call(self, suit: Optional[Suit]) -> None:
        """The seat to speak passes (None) or chooses `suit`; a call the procedure does not
        allow now is a SolverError naming the calls that are."""
        allowed = self.choices()
        if suit not in allowed:
            said = "pass" if suit is None else getattr(suit, "name", repr(suit))
            open_now = ", ".join("pass" if s is None else s.name for s in allowed) or "none"
            raise SolverError(f"draaikaart: {said} is not a call open now ({self._phase()}): "
                              f"open are {open_now}")
        seat = self.to_speak()
        assert seat is not None
        self.calls.append((seat, suit))
        if suit is not None:
            self.chosen = (seat, suit)
        elif len(self.calls) == 4 and not self.second_round or \
                len(self.calls) == 8 and self.on_all_pass == "turned_forced":
            self.chosen = (forced_seat(self.dealer, self.on_all_pass), self.turned)

    def _phase(self) -> str:
        seat = self.to_speak()
        return "trump is chosen" if seat is None else f"round {self.round}, {seat.name} to speak"

"""A round of Klaverjas in plain Python, written to read like docs/rules.md.

This is the statement of the rules the engine is tested against: legal cards under every
duty option, the winner of a trick, the roem in a trick, points so far, and replaying a
recorded play.

>>> from solver import Deal, Rules
>>> game = Game(Deal.random(1), trump="H", leader="E", playing="NS", rules=Rules())
>>> game.to_move
<Seat.E: 1>
>>> game.play(game.legal_cards()[0]); len(game.current_trick)
1
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from .cards import (LAST_TRICK_BONUS, SEATS, ByTeam, Card, CardLike, CardsLike, Rank, Seat, SeatLike, Suit,
                    SuitLike, Team, TeamLike, split_cards)
from .deal import Deal, check_deal
from ..errors import IllegalPlayError, NotationError, RulesError, SolverError, quote
from .rules import Rules, RulesLike, check_rules
from .scoring import (Tally, counted_hand_roem, final_scores, ledig_scores, ledig_value,
                      objective_value, pit_bonus, point_factor, Value)


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the four cards in playing order, who won, what it was worth."""

    number: int
    leader: Seat
    cards: Tuple[Card, ...]
    winner: Seat
    points: int   # card points, with the last-trick bonus on trick 8
    roem: int

    def seat_of(self, index: int) -> Seat:
        """The seat that played `cards[index]`."""
        return SEATS[(self.leader + index) % 4]


# -- the rules of one trick, as functions of the cards on the table -----------------------------

def winning_index(cards: List[Card], trump: Optional[Suit]) -> int:
    """Index in `cards` (playing order) of the card that wins so far: highest trump, else
    highest card of the led suit (with no trump, None, always the latter)."""
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit == top.suit and card.strength(trump) > top.strength(trump):
            best = i
        elif card.suit == trump and top.suit != trump:
            best = i
    return best


def legal_cards(hand: Iterable[Card], trick: List[Card], seat: Seat, trick_leader: Seat,
                trump: Optional[Suit], rules: Rules) -> Tuple[List[Card], Optional[str]]:
    """The cards `seat` may play to `trick`, and the duty that limits them (None if free).
    With no trump (None, a ledig round under ledig_trump="none") only "follow suit" binds.

    The duties of docs/rules.md, "What you must play": "follow suit", "overtrump" (beat the
    highest trump when trumps are led or when ruffing), "trump" (ruff when void), "undertrump"
    (the undertrump option).
    """
    hand = sorted(hand)
    if not trick:
        return hand, None
    led = trick[0].suit
    trumps_in_trick = [c for c in trick if c.suit == trump]
    highest_trump = max((c.strength(trump) for c in trumps_in_trick), default=None)

    def beats_highest(card: Card) -> bool:
        return highest_trump is None or card.strength(trump) > highest_trump

    follow = [c for c in hand if c.suit == led]
    if follow:
        if led == trump:
            higher = [c for c in follow if beats_highest(c)]
            if higher and len(higher) < len(follow):
                return higher, "overtrump"
        return follow, "follow suit"

    trumps = [c for c in hand if c.suit == trump]
    if not trumps:
        return hand, None
    non_trumps = [c for c in hand if c.suit != trump]
    higher = [c for c in trumps if beats_highest(c)]
    lower = [c for c in trumps if not beats_highest(c)]

    winner = SEATS[(trick_leader + winning_index(trick, trump)) % 4]
    if rules.trump_duty == "amsterdam" and winner == seat.partner:
        # Exempt from trumping; undertrumping partner is still limited by `undertrump`.
        if lower and non_trumps and rules.undertrump == "forbidden":
            return [c for c in hand if c not in lower], "undertrump"
        return hand, None
    if not trumps_in_trick:
        return trumps, "trump"
    if higher:
        return higher, "overtrump"
    if rules.undertrump == "forbidden":
        return (non_trumps, "undertrump") if non_trumps else (hand, None)
    if rules.undertrump == "must":
        return trumps, "undertrump"
    return hand, None


def _run_roem(ranks: int) -> int:
    """Roem of one suit's cards of a trick, given as an 8-bit set by rank (natural order):
    20 for a run of three, 50 for four (a trick holds at most four cards, so one run)."""
    longest = run = 0
    for rank in Rank:
        run = run + 1 if (ranks >> rank) & 1 else 0
        longest = max(longest, run)
    return 20 if longest == 3 else 50 if longest >= 4 else 0


_RUN_ROEM = tuple(_run_roem(ranks) for ranks in range(256))
_QUEEN_KING = 1 << Rank.QUEEN | 1 << Rank.KING


def trick_roem(cards: Iterable[Card], trump: Optional[Suit], rules: Rules) -> int:
    """Roem on the table made by the four cards of one trick (stuk "hand" is not in here:
    it depends on who was dealt the cards, see `Game`)."""
    cards = list(cards)
    if rules.roem != "table":
        return 0
    # The cards as a set of indices (suit * 8 + rank): a byte of ranks a suit, read in a
    # table, rather than sorting each suit's cards (11 us a trick to 0.65).
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    roem = (_RUN_ROEM[mask & 0xFF] + _RUN_ROEM[(mask >> 8) & 0xFF]
            + _RUN_ROEM[(mask >> 16) & 0xFF] + _RUN_ROEM[mask >> 24])
    if len(cards) == 4 and len({card.rank for card in cards}) == 1:
        roem += rules.four_of_a_kind_value(cards[0].rank)
    if (trump is not None and rules.stuk == "trick"
            and (mask >> 8 * trump) & _QUEEN_KING == _QUEEN_KING):
        roem += 20
    return roem


def stuk_hand_roem(cards: Iterable[Card], holder_hand: Iterable[Card], trump: Suit) -> int:
    """stuk="hand": 20 in the trick where the seat dealt trump K and Q plays the second of
    them, i.e. the trick holds one and the holder's hand after it holds neither."""
    pair = {Card(trump, Rank.KING), Card(trump, Rank.QUEEN)}
    return 20 if pair & set(cards) and not pair & set(holder_hand) else 0


def _parse_trump(trump: SuitLike) -> Suit:
    try:
        return Suit.parse(trump)
    except NotationError as err:
        raise NotationError(f"trump: {err}") from None


def _needed(value: Any, what: str) -> Any:
    """`value`, which a round needs: None is a NotationError (the class the parsers raise for
    a missing value, as they always did) saying so."""
    if value is None:
        raise NotationError(f"a round needs {what}, say")
    return value


@dataclass(frozen=True)
class _RoundSeats:
    """Who does what in a round, once the contract and the table have been checked."""

    trump: Optional[Suit]
    leader: Seat
    playing: Team
    bidder: Optional[Seat]
    dummy: Optional[Seat]


def _seat_text(seat: SeatLike) -> str:
    """A seat as an error names it: N, not <Seat.N: 0>; anything else as given."""
    return seat.name if isinstance(seat, Seat) else quote(seat)


def _round_seats(rules: Rules, trump: Optional[SuitLike], leader: Optional[SeatLike],
                 playing: Optional[TeamLike], bidder: Optional[SeatLike],
                 dummy: Optional[SeatLike]) -> _RoundSeats:
    """The trump, leader, playing team, bidder and dummy of a round under `rules`: a ledig
    round's playing team is the bidder's (docs/rules.md, "Ledig"), a three-player round's the
    dummy's. RulesError names an input the rules refuse or miss."""
    ledig = rules.contract == "ledig"
    if ledig and bidder is None:
        raise RulesError("a ledig round (contract='ledig') needs the bidder seat: bidder='S', say")
    if not ledig and bidder is not None:
        raise RulesError(f"bidder={_seat_text(bidder)} is for ledig rounds (Rules(contract='ledig')); "
                         f"a trump round takes the playing team (playing='NS', say)")
    if rules.players == 3 and dummy is None:
        raise RulesError("a three-player round (players=3) needs the dummy seat: dummy='N', say")
    if rules.players != 3 and dummy is not None:
        raise RulesError(f"dummy={_seat_text(dummy)} is for three-player rounds (Rules(players=3)); "
                         f"this round has players={rules.players}")
    if ledig and rules.ledig_trump == "none":
        if trump is not None:
            raise RulesError(f"trump={quote(trump)}: a ledig round under ledig_trump='none' has "
                             f"no trump; give trump only under ledig_trump='chosen'")
        suit: Optional[Suit] = None
    elif trump is None and ledig:
        raise RulesError("a ledig round under ledig_trump='chosen' needs the trump suit: trump='H', say")
    else:
        suit = _parse_trump(_needed(trump, "the trump suit: trump='H'"))
    seat = Seat.parse(_needed(leader, "the seat that leads trick 1: leader='N'"))
    bidder_seat = None if bidder is None else Seat.parse(bidder)
    dummy_seat = None if dummy is None else Seat.parse(dummy)
    given = None if playing is None else Team.parse(playing)
    team = given
    for name, who in (("bidder", bidder_seat), ("dummy", dummy_seat)):
        if who is None:
            continue
        if team is not None and team != who.team:
            what = "the playing team" if team is given else "the bidder's team"
            raise RulesError(f"{name}={who.name} is in team {who.team.name}, but {what} is "
                             f"{team.name}: the {name}'s team is the playing team")
        team = who.team
    if team is None:
        team = Team.parse(_needed(playing, "the playing team: playing='NS'"))
    return _RoundSeats(suit, seat, team, bidder_seat, dummy_seat)


class Game:
    """One round: a deal, a trump suit, the seat that leads trick 1, and the playing team.

    `play(card)` and `undo()` move through the round; `legal_cards()` lists what the player to
    move may play; the tallies so far are in `tally(team)`.

    A ledig round (`Rules(contract="ledig")`, docs/rules.md "Ledig") takes `bidder`, the seat
    that must take no trick, and its team plays; under `ledig_trump="none"` it has no trump
    (`trump` is None): every suit ranks in the plain order and only following suit binds.
    Only the bidder's tricks count (`bidder_tricks`): the tallies stay 0. A three-player round
    (`Rules(players=3)`) takes `dummy`, the silent partner's seat, and its team plays.

    >>> game = Game(Deal.random(1), leader="W", rules=Rules(contract="ledig"), bidder="S")
    >>> game.trump is None, game.playing
    (True, <Team.NS: 0>)
    """

    def __init__(self, deal: Deal, trump: Optional[SuitLike] = None,
                 leader: Optional[SeatLike] = None, playing: Optional[TeamLike] = None,
                 rules: Optional[RulesLike] = None, *, bidder: Optional[SeatLike] = None,
                 dummy: Optional[SeatLike] = None) -> None:
        self.deal = check_deal(deal)
        self.rules = check_rules(rules)
        seats = _round_seats(self.rules, trump, leader, playing, bidder, dummy)
        self.trump: Optional[Suit] = seats.trump
        self.leader: Seat = seats.leader
        self.playing: Team = seats.playing
        self.bidder: Optional[Seat] = seats.bidder
        self.dummy: Optional[Seat] = seats.dummy
        self.hands: List[Set[Card]] = [set(deal[s]) for s in Seat]
        self.tricks: List[Trick] = []
        self.current_trick: List[Card] = []
        self.played: List[Card] = []
        self._factor = 1 if self.trump is None else point_factor(self.rules, self.trump)
        self.stuk_holder = self._find_stuk_holder()

    def _find_stuk_holder(self) -> Optional[Seat]:
        # The seat dealt both trump K and Q, when stuk="hand" scores it on the table.
        if self.trump is None or self.rules.roem != "table" or self.rules.stuk != "hand":
            return None
        pair = {Card(self.trump, Rank.KING), Card(self.trump, Rank.QUEEN)}
        for seat in Seat:
            if pair <= set(self.deal[seat]):
                return seat
        return None

    # -- where we are ------------------------------------------------------------------------

    @property
    def trick_leader(self) -> Seat:
        """The seat that leads (or led) the trick being played."""
        return self.tricks[-1].winner if self.tricks else self.leader

    @property
    def to_move(self) -> Seat:
        """The seat whose turn it is."""
        return SEATS[(self.trick_leader + len(self.current_trick)) % 4]

    @property
    def trick_number(self) -> int:
        """1..8 for the trick being played; 9 once the round is over."""
        return len(self.tricks) + 1

    @property
    def is_over(self) -> bool:
        """Whether all 8 tricks are played."""
        return len(self.tricks) == 8

    # -- the rules -------------------------------------------------------------------------

    def legal_cards(self) -> List[Card]:
        """The cards the player to move may play, lowest index first."""
        if self.is_over:
            return []
        cards, _ = legal_cards(self.hands[self.to_move], self.current_trick, self.to_move,
                               self.trick_leader, self.trump, self.rules)
        return cards

    def check(self, card: CardLike) -> Card:
        """The card, if the player to move may play it; else IllegalPlayError saying why."""
        return self._checked(card, self.to_move)

    def _checked(self, card: CardLike, seat: Seat) -> Card:
        """check(card), `seat` being the player to move."""
        card = self._held(card, seat)
        trick = self.current_trick
        if not trick or (card.suit == trick[0].suit and card.suit != self.trump):
            return card     # a lead, or following a plain suit: every duty allows it
        allowed, duty = legal_cards(self.hands[seat], trick, seat, self.trick_leader,
                                    self.trump, self.rules)
        if card not in allowed:
            assert duty is not None     # a held card is refused only by a duty
            raise IllegalPlayError(
                f"trick {self.trick_number}, seat {seat.name}: {card} breaks the duty to "
                f"{_duty_text(duty, self.rules)}; legal are {' '.join(map(str, allowed))}",
                card=card, seat=seat, trick=self.trick_number, duty=duty)
        return card

    def _held(self, card: CardLike, seat: Seat) -> Card:
        """The card, if `seat`, the player to move, holds it (duty "hold"), before the end
        ("over")."""
        if type(card) is not Card:
            try:
                card = Card.parse(card)
            except NotationError as err:
                raise IllegalPlayError(f"trick {self.trick_number}, seat {seat.name}: {err}",
                                       seat=seat, trick=self.trick_number,
                                       duty="notation") from None
        if len(self.tricks) == 8:
            raise IllegalPlayError(f"{card}: the round is over, all 8 tricks are played",
                                   card=card, trick=self.trick_number, duty="over")
        if card not in self.hands[seat]:
            owner = "was already played" if card in self.played else \
                f"is in the hand of {next(s.name for s in Seat if card in self.hands[s])}"
            raise IllegalPlayError(f"trick {self.trick_number}, seat {seat.name}: {seat.name} "
                                   f"does not hold {card} (it {owner})",
                                   card=card, seat=seat, trick=self.trick_number, duty="hold")
        return card

    # play and place work out the player to move once a card (to_move reads the last trick)
    # and hand it on.
    def play(self, card: CardLike) -> None:
        """Play a card for the player to move (checked against the rules)."""
        seat = self.to_move
        self._place(self._checked(card, seat), seat)

    def place(self, card: CardLike) -> None:
        """Put a card the player to move holds on the table without judging its duties.

        For replaying a recorded play that may break them (verzaken); `play` is the checked
        way, and `legal_cards` and the engine assume every card so far was legal."""
        seat = self.to_move
        self._place(self._held(card, seat), seat)

    def _place(self, card: Card, seat: Seat) -> None:
        self.hands[seat].remove(card)
        self.current_trick.append(card)
        self.played.append(card)
        if len(self.current_trick) == 4:
            self.tricks.append(self._close_trick())
            self.current_trick = []

    def undo(self) -> Card:
        """Take back the last card played."""
        if not self.played:
            raise SolverError("nothing to undo: no card has been played")
        if not self.current_trick:
            self.current_trick = list(self.tricks.pop().cards)
        card = self.current_trick.pop()
        self.hands[self.to_move].add(card)
        self.played.pop()
        return card

    def replay(self, cards: CardsLike) -> None:
        """Play a recorded sequence, e.g. `game.replay("DA D7 D8 DK")`; stops at an illegal card.

        Cards in a string are separated by spaces: another separator ("HA,HT") is a
        NotationError naming it, before any card is played."""
        if isinstance(cards, str):
            cards = split_cards(cards)
        try:
            cards = list(cards)
        except TypeError:
            raise IllegalPlayError(f"the cards played must be a list or a space-separated "
                                   f"string, got {quote(cards)}") from None
        for card in cards:
            self.play(card)

    def _close_trick(self) -> Trick:
        cards = tuple(self.current_trick)
        leader = self.trick_leader
        winner = SEATS[(leader + winning_index(list(cards), self.trump)) % 4]
        number = len(self.tricks) + 1
        if self.rules.contract == "ledig":   # only tricks count (docs/rules.md, "Ledig")
            return Trick(number, leader, cards, winner, 0, 0)
        points = sum(c.points(self.trump) for c in cards) + (LAST_TRICK_BONUS if number == 8 else 0)
        roem = trick_roem(cards, self.trump, self.rules) + self._stuk_in_hand_roem(cards)
        return Trick(number, leader, cards, winner, points * self._factor, roem)

    def _stuk_in_hand_roem(self, cards: Iterable[Card]) -> int:
        if self.stuk_holder is None or self.trump is None:
            return 0
        return stuk_hand_roem(cards, self.hands[self.stuk_holder], self.trump)

    # -- points ------------------------------------------------------------------------------

    def taken(self, team: TeamLike) -> Tuple[int, int, int]:
        """(card points, table roem, tricks) that `team` took in finished tricks."""
        return self.taken_by_team()[Team.parse(team)]

    def taken_by_team(self) -> Tuple[Tuple[int, int, int], Tuple[int, int, int]]:
        """`taken` of NS and of EW (index by Team), in one pass over the tricks: the engine
        reads it before every search of a Game's position."""
        points, roem, won = [0, 0], [0, 0], [0, 0]
        for trick in self.tricks:
            team = trick.winner & 1        # TEAMS[seat % 2]
            points[team] += trick.points
            roem[team] += trick.roem
            won[team] += 1
        return (points[0], roem[0], won[0]), (points[1], roem[1], won[1])

    def tricks_won(self) -> Dict[Team, int]:
        """The finished tricks each team took."""
        by_team = self.taken_by_team()
        return {team: by_team[team][2] for team in Team}

    def tally(self, team: TeamLike) -> Tally:
        """What `team` has so far: card points, roem (table and counted hand roem), pit."""
        team = Team.parse(team)
        if self.rules.contract == "ledig":
            return Tally()      # nothing but the bidder's tricks counts
        won = self.tricks_won()
        points, roem, _ = self.taken(team)
        hands = {t: [self.deal[s] for s in t.seats] for t in Team}
        roem += counted_hand_roem(hands, self.trump, self.rules, won)[team]
        pit = pit_bonus(team, won, self.playing, self.rules)
        return Tally(points, roem, pit)

    def tallies(self) -> Dict[Team, Tally]:
        """`tally(team)` for both teams."""
        return {team: self.tally(team) for team in Team}

    def bidder_tricks(self) -> int:
        """The finished tricks the bidder of a ledig round took (0 in a trump round)."""
        return sum(1 for t in self.tricks if t.winner == self.bidder)

    def final_scores(self) -> ByTeam:
        """Each team's score for the finished round, under either contract."""
        if self.rules.contract == "ledig":
            return ledig_scores(self.bidder_tricks(), self.playing, self.rules)
        return final_scores(self.tallies(), self.playing, self.trump, self.rules)

    def objective_value(self, objective: str) -> Value:
        """The value of the finished round for `objective`, from the playing team (the
        bidder's team in a ledig round), under either contract."""
        if self.rules.contract == "ledig":
            return ledig_value(objective, self.bidder_tricks(), self.rules)
        return objective_value(objective, self.tallies(), self.playing, self.trump, self.rules)

    def roem_so_far(self) -> int:
        """All roem made in finished tricks plus hand roem, both teams (for verzaken)."""
        return sum(self.tally(t).roem for t in Team)

    def copy(self) -> "Game":
        """The same position in a new Game (cards put down by `place` included)."""
        other = Game(self.deal, self.trump, self.leader, self.playing, self.rules,
                     bidder=self.bidder, dummy=self.dummy)
        for card in self.played:
            other.place(card)   # judged when they were played; not judged again
        return other

    def __deepcopy__(self, memo: Dict[int, object]) -> "Game":
        """`copy.deepcopy`: the same position, sharing what never changes (the deal, the rules,
        the cards and the finished tricks), fast enough for search code that copies states."""
        other = copy.copy(self)
        other.hands = [set(hand) for hand in self.hands]
        other.tricks = list(self.tricks)
        other.current_trick = list(self.current_trick)
        other.played = list(self.played)
        return other

    def __repr__(self) -> str:
        trump = None if self.trump is None else self.trump.name
        seats = "".join(f", {name}={seat.name!r}" for name, seat in
                        (("bidder", self.bidder), ("dummy", self.dummy)) if seat is not None)
        return (f"Game({self.deal!r}, trump={trump!r}, leader={self.leader.name!r}, "
                f"playing={self.playing.name!r}, rules={self.rules!r}{seats}, "
                f"played={len(self.played)})")


def check_game(game: object) -> Game:
    """`game` when it is a Game; anything else is a SolverError, whichever function it was
    given to."""
    if not isinstance(game, Game):
        raise SolverError(f"expected a Game (Game(deal, trump, leader, playing, rules)), got "
                          f"{quote(game)}")
    return game


def _duty_text(duty: str, rules: Rules) -> str:
    if duty == "undertrump":
        return ("play a lower trump when unable to overtrump" if rules.undertrump == "must"
                else "not undertrump while holding a card of another suit")
    return {"follow suit": "follow suit",
            "overtrump": "beat the highest trump in the trick",
            "trump": "trump when void in the led suit"}[duty]

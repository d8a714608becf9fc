"""AlphaMuBot: the αμ search of Cazenave and Ventos ("The αμ search algorithm for the game of
Bridge", 2020), a remedy for PIMC's strategy fusion.

PIMC (`PIMCBot`) values each card by its mean double-dummy value over sampled worlds, as if
the player would know the hidden hands after this card: in each world it is credited with
the best continuation for that world, even where the worlds call for different cards at a
moment when the player cannot tell them apart. αμ searches `max_moves` of the player's own
moves ahead before it hands the worlds to the double-dummy engine:

- at the player's own moves (every hand he plays: his own, and his dummy's or his second
  hand's at a table of three or two) one card is chosen for all worlds alike, since he
  cannot tell them apart;
- the other seats see everything and choose per world: opponents the worst card for him in
  each world, his partner the best;
- a value is not one number but a set of vectors, one number per world (what one way of
  playing the player's moves brings in each world), kept as a Pareto front: a vector worse
  than or equal to another in every world is dropped. The player's moves take the union of
  their cards' fronts; the other seats combine their cards' fronts world by world (every
  vector of one with every vector of the next, the minimum or maximum in each world);
- at the last of the player's `max_moves` moves every legal card's double-dummy value in
  each world is a vector of its own (one batch of engine searches for the whole tree).

A card's value is the best mean of a vector in its front. With `max_moves=1` that is every
card's mean over the worlds: PIMC's choice, card for card. The deeper search costs a tree
of the other seats' cards between the player's moves, so it runs only once `deep_tricks`
tricks or fewer are left (earlier, `max_moves` is 1), and a front keeps at most
`MOST_FRONT` vectors (those with the best means, a bound the paper does not have: with
points rather than won or lost, fronts grow).

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> AlphaMuBot(max_moves=2, worlds=8, seed=1).act(game, "E")
Card.parse('HK')
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..batch import PositionBatch, deal_row
from ..engine.search import Solver, warm_solver
from ..analysis.parallel import check_solver
from ..errors import SolverError, quote, whole_number
from ..model.cards import Card, Seat
from ..model.deal import Deal
from ..model.game import Game, check_game
from ..model.players import player_of, table_players
from ..model.streams import derive
from ..model.worlds import MOST_WORLDS, same_round, sample_worlds
from .bot import Bot

# How a card is judged: the points objective, as PIMCBot's default and the arena's.
OBJECTIVE = "points"
# The deeper search runs from the trick where this many tricks are left (trick 6 of 8):
# before it the tree of the other seats' cards is too wide to search within ~50 ms a move.
DEEP_TRICKS = 3
# Vectors a front keeps at most (those with the best means).
MOST_FRONT = 16
# The most own moves searched: the whole of a round's last tricks.
MOST_MOVES = 8
# Stands for "this world is not reached by this card" when fronts are combined per world.
_UNREACHED = 1 << 20

# A node of the searched tree, built before the engine is asked anything:
#   ("leaf", first row of its worlds in the batch, its worlds, the legal cards),
#   ("own", its worlds, one child per legal card),
#   ("other", its worlds, whether the seat is on the player's team, one child per card).
Node = Tuple[Any, ...]


class AlphaMuBot(Bot):
    """αμ over `worlds` sampled worlds, searching `max_moves` of its own moves ahead once
    `deep_tricks` tricks or fewer are left (see the module's docstring). Its worlds are drawn
    as PIMCBot's are (the same seed for the same cards played), so that `max_moves=1` plays
    PIMCBot's card with as many worlds."""

    def __init__(self, max_moves: int = 2, worlds: int = 16, seed: Optional[int] = None,
                 deep_tricks: int = DEEP_TRICKS) -> None:
        self.max_moves = whole_number("max_moves", max_moves, 1, MOST_MOVES)
        self.worlds = whole_number("worlds", worlds, 1, MOST_WORLDS)
        self.deep_tricks = whole_number("deep_tricks", deep_tricks, 1, 8)
        self.name = f"alphamu:{self.max_moves}:{self.worlds}"
        super().__init__(seed)

    def choose(self, game: Game, seat: Seat) -> Card:
        totals = self.card_totals(game)
        top = max(totals.values())
        return next(card for card, total in totals.items() if total == top)

    def card_totals(self, game: Game) -> Dict[Card, int]:
        """{card: the best total over the worlds of a vector in its front} for every legal
        card of the player to move in `game` (the round as this bot sees it), in the order
        of `legal_cards`: the best mean times the number of worlds."""
        worlds = sample_worlds(game, game.to_move, self.worlds,
                               derive(self.seed, len(game.played)))
        tricks_left = 9 - game.trick_number
        moves = self.max_moves if tricks_left <= self.deep_tricks else 1
        # The thread's warm Solver, kept between moves and shared with the analyses.
        return card_totals(game, worlds, moves, warm_solver(game.rules))


def card_totals(game: Game, worlds: List[Deal], max_moves: int, solver: Solver
                ) -> Dict[Card, int]:
    """{card: the best total over `worlds` of a vector in its front} for every legal card of
    the player to move in `game`, searching `max_moves` of his own moves ahead (fewer where
    the round ends first), the values from his team's view (`solver`'s rules are the
    round's). With one world it is the double-dummy value of each card.

    >>> from solver import Deal, Game, Solver
    >>> game = Game(Deal.random(1), "H", "E", "NS")
    >>> for _ in range(8):                           # two tricks played
    ...     game.play(game.legal_cards()[0])
    >>> totals = card_totals(game, [game.deal], 3, Solver())
    >>> sign = 1 if game.to_move.team == game.playing else -1     # values are the mover's
    >>> totals == {card: sign * v for card, v in Solver().move_values(game).items()}
    True
    """
    check_game(game)
    if game.is_over:
        raise SolverError("the round is over: there is no card to play")
    max_moves = whole_number("max_moves", max_moves, 1, MOST_MOVES)
    if not (isinstance(worlds, list) and worlds and all(isinstance(w, Deal) for w in worlds)):
        raise SolverError(f"worlds must be a non-empty list of Deals (sample_worlds), got "
                          f"{quote(worlds)}")
    check_solver(solver)
    if solver is None or solver.rules != game.rules:
        raise SolverError(f"card_totals needs a Solver for the round's rules "
                          f"(Solver(game.rules)), got {quote(solver)}")
    # In the last trick no move of his own follows this one.
    moves = 1 if game.trick_number == 8 else max_moves
    fronts = _Search(game, worlds, solver).card_fronts(moves)
    return {card: int(front.sum(1).max()) for card, front in fronts.items()}


class _Search:
    """One αμ search from `game`'s position over `worlds`: a Game per world, moved along the
    tree together, and the positions at the leaves, solved in one batch."""

    def __init__(self, game: Game, worlds: List[Deal], solver: Solver) -> None:
        self.game, self.solver = game, solver
        players = table_players(game.rules, game.playing, game.dummy)
        self.own = frozenset(player_of(players, game.to_move).seats)
        self.team = game.to_move.team
        self.worlds = worlds
        self.games: List[Game] = []     # made only for a search past the root's cards
        self.deal_rows = np.array([deal_row(world) for world in worlds], dtype=np.int8)
        self.count = len(worlds)
        self.line: List[Card] = []          # the cards played in the tree so far
        self.rows: List[Tuple[int, Tuple[Card, ...]]] = []     # (world, line) per leaf row

    def card_fronts(self, max_moves: int) -> Dict[Card, np.ndarray]:
        """{card: its front} for each legal card at the root."""
        everyone = list(range(self.count))
        if max_moves == 1:
            root = self._leaf(everyone)
            values = self._solve()
            return {card: self._leaf_vectors(root, values)[[i]]
                    for i, card in enumerate(root[3])}
        for world in self.worlds:
            play = same_round(self.game, world)
            play.replay(self.game.played)
            self.games.append(play)
        children = {}
        for card in self.game.legal_cards():
            self._play(everyone, card)
            children[card] = self._expand(everyone, max_moves - 1)
            self._undo(everyone)
        values = self._solve()
        return {card: self._front(child, values) for card, child in children.items()}

    # -- the tree, before any search -----------------------------------------------------------

    def _expand(self, worlds: List[int], moves_left: int) -> Node:
        first = self.games[worlds[0]]
        if first.to_move in self.own:
            if moves_left == 1 or first.trick_number == 8:
                return self._leaf(worlds)
            children = []
            for card in first.legal_cards():     # his hands are the same in every world
                self._play(worlds, card)
                children.append(self._expand(worlds, moves_left - 1))
                self._undo(worlds)
            return ("own", worlds, children)
        by_card: Dict[Card, List[int]] = {}
        for w in worlds:
            for card in self.games[w].legal_cards():
                by_card.setdefault(card, []).append(w)
        children = []
        for card, reached in by_card.items():
            self._play(reached, card)
            children.append(self._expand(reached, moves_left))
            self._undo(reached)
        return ("other", worlds, first.to_move.team == self.team, children)

    def _leaf(self, worlds: List[int]) -> Node:
        first_row = len(self.rows)
        line = tuple(self.line)
        self.rows += [(w, line) for w in worlds]
        at = self.games[worlds[0]] if self.games else self.game
        return ("leaf", first_row, worlds, at.legal_cards())

    def _play(self, worlds: List[int], card: Card) -> None:
        for w in worlds:
            self.games[w].place(card)     # a legal card: legal_cards gave it
        self.line.append(card)

    def _undo(self, worlds: List[int]) -> None:
        for w in worlds:
            self.games[w].undo()
        self.line.pop()

    # -- the values -------------------------------------------------------------------------

    def _solve(self) -> np.ndarray:
        """Every leaf row's move values, from the player's team (the team to move there)."""
        played: np.ndarray = np.full((len(self.rows), 32), -1, dtype=np.int8)
        for row, (_, line) in enumerate(self.rows):
            cards = list(self.game.played) + list(line)
            played[row, :len(cards)] = [card.index for card in cards]
        deals = self.deal_rows[[w for w, _ in self.rows]]
        game = self.game
        batch = PositionBatch(deals, -1 if game.trump is None else int(game.trump),
                              int(game.leader), int(game.playing), played, game.rules,
                              solver=self.solver,
                              bidder=None if game.bidder is None else int(game.bidder),
                              dummy=None if game.dummy is None else int(game.dummy))
        values = batch.values(OBJECTIVE)
        self.solver.search_seconds += batch.search_seconds
        return values.astype(np.int64)

    def _leaf_vectors(self, leaf: Node, values: np.ndarray) -> np.ndarray:
        """One vector per legal card at a leaf (0 in the worlds that do not reach it)."""
        _, first_row, worlds, legal = leaf
        vectors: np.ndarray = np.zeros((len(legal), self.count), dtype=np.int64)
        rows = values[first_row:first_row + len(worlds)]
        vectors[:, worlds] = rows[:, [card.index for card in legal]].T
        return vectors

    def _front(self, node: Node, values: np.ndarray) -> np.ndarray:
        if node[0] == "leaf":
            return _pareto(self._leaf_vectors(node, values))
        if node[0] == "own":
            return _pareto(np.concatenate([self._front(child, values) for child in node[2]]))
        _, worlds, ours, children = node
        # A card a seat cannot play in a world does not count there: it stands as the worst
        # value for that seat (the player's best, for an opponent).
        unreached = -_UNREACHED if ours else _UNREACHED
        combined: Optional[np.ndarray] = None
        for child in children:
            front = self._front(child, values)
            outside: np.ndarray = np.ones(self.count, dtype=bool)
            outside[_worlds_of(child)] = False
            front[:, outside] = unreached
            if combined is None:
                combined = front
                continue
            pairs = (np.maximum if ours else np.minimum)(combined[:, None, :], front[None, :, :])
            combined = _pareto(pairs.reshape(-1, self.count))
        assert combined is not None
        result = np.zeros_like(combined)
        result[:, worlds] = combined[:, worlds]
        return _pareto(result)


def _pareto(vectors: np.ndarray) -> np.ndarray:
    """The vectors no other is at least as good as in every world (the first of equal ones),
    at most MOST_FRONT of them: those with the best totals."""
    if len(vectors) > 1:
        # covers[i, j]: vector i is at least vector j in every world
        covers = (vectors[:, None, :] >= vectors[None, :, :]).all(2)
        equal = covers & covers.T
        dropped = (covers & ~equal).any(0) | np.triu(equal, 1).any(0)
        vectors = vectors[~dropped]
    if len(vectors) > MOST_FRONT:
        vectors = vectors[np.argsort(-vectors.sum(1), kind="stable")[:MOST_FRONT]]
    return vectors


def _worlds_of(node: Node) -> List[int]:
    """The worlds that reach `node`."""
    worlds: List[int] = node[2] if node[0] == "leaf" else node[1]
    return worlds

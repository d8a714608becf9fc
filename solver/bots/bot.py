"""What every bot is: a name, `act(game, seat) -> Card` and `reset(seed)`; and what a seat
sees of a round, which is all a bot that cannot see the hidden hands is ever given.

A bot is handed the real `Game`, as a table would hand it. `Bot.act` first turns it into the
round as `seat` sees it (`seat_view`): its own hand and every card played are real, the
other hands are a deal drawn from those `seat` cannot tell apart, fixed by what `seat` saw
alone. A bot's `choose` sees only that, so it cannot use the hidden hands even by mistake;
only a bot that declares `sees_hidden_hands` (the double-dummy `DDBot`) gets the real game.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> view = seat_view(game, "E")
>>> view.hands[1] == game.hands[1], view.played == game.played
(True, True)
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Optional

from ..model.worlds import same_round, sample_worlds
from ..errors import BotError, SolverError, quote, whole_number
from ..model.cards import Card, Seat, SeatLike
from ..model.game import Game, check_game


def seat_view(game: Game, seat: SeatLike) -> Game:
    """The round as `seat` sees it: a Game with `seat`'s real hand and the real play so far,
    and hidden hands drawn from the deals `seat` cannot tell apart (with a fixed seed, so
    they depend only on what `seat` saw: two rounds that look the same from `seat` give the
    same view)."""
    check_game(game)
    seat = Seat.parse(seat)
    world = sample_worlds(game, seat, 1, seed=0)[0]
    view = same_round(game, world)     # a ledig round's bidder, a table of three's dummy
    for card in game.played:
        view.place(card)     # judged when it was played; the world agrees with the play
    return view


def check_name(name: object) -> str:
    """`name`, a bot's name as results show it: a non-empty string, else BotError."""
    if not (isinstance(name, str) and name):
        raise BotError(f"a bot's name must be a non-empty string, got {quote(name)}")
    return name


class Bot(ABC):
    """A player of the card play. Subclasses set `name` and write `choose`.

    `act(game, seat)` returns the card `seat` plays (`seat` must be the player to move);
    `reset(seed)` starts a new round with a fresh seeded stream, so that a bot's choices
    depend only on the seed and what it saw.
    """

    name: str = "bot"
    # Only a bot meant as a cheating yardstick sets this: it is then given the real game.
    sees_hidden_hands: bool = False

    def __init__(self, seed: Optional[int] = None) -> None:
        self.reset(seed)

    def reset(self, seed: Optional[int] = None) -> None:
        """Start again, seeded by `seed` (None: 0)."""
        self.seed = 0 if seed is None else whole_number("seed", seed)

    def act(self, game: Game, seat: SeatLike) -> Card:
        """The card `seat`, the player to move, plays now."""
        check_game(game)
        seat = Seat.parse(seat)
        if game.is_over:
            raise SolverError(f"{self.name}: the round is over, there is no card to play")
        if seat != game.to_move:
            raise SolverError(f"{self.name}: seat {seat.name} is not to play: "
                              f"{game.to_move.name} is")
        seen = game if self.sees_hidden_hands else seat_view(game, seat)
        try:
            card = self.choose(seen, seat)
        except (SolverError, MemoryError):
            raise
        except Exception as err:    # a bot's own bug: one error naming the bot (and chained)
            raise BotError(f"{self.name} failed to choose a card for seat {seat.name} at trick "
                           f"{game.trick_number}: {type(err).__name__}: {err}") from err
        if card not in seen.legal_cards():
            raise SolverError(f"{self.name} chose {quote(card)}, which seat {seat.name} may "
                              f"not play; legal are {' '.join(map(str, seen.legal_cards()))}")
        return card

    @abstractmethod
    def choose(self, game: Game, seat: Seat) -> Card:
        """The card to play, given the round as this bot may see it (`seat_view`, unless
        `sees_hidden_hands`)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

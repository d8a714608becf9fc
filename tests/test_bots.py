"""The bots: each plays only legal cards, a seeded bot repeats itself, a bot that cannot see
the hidden hands plays the same whatever they are, and the rules of RuleBot as written."""
import pytest

from solver import Deal, Game, Seat, SolverError
from solver.analysis.worlds import sample_worlds
from solver.bots import Bot, RandomBot, seat_view


def game_after(seed: int, cards: int) -> Game:
    """A round of Deal.random(seed), hearts, E leads, NS play, after `cards` random cards."""
    game = Game(Deal.random(seed), "H", "E", "NS")
    bot = RandomBot(seed=seed)
    for _ in range(cards):
        game.play(bot.act(game, game.to_move))
    return game


def same_view_other_hands(game: Game, seat: Seat, seed: int) -> Game:
    """The same round seen from `seat` with the hidden hands dealt otherwise (consistently
    with everything played)."""
    world = sample_worlds(game, seat, 1, seed=seed)[0]
    other = Game(world, game.trump, game.leader, game.playing, game.rules)
    other.replay(game.played)
    return other


def play_out(bots, game: Game) -> Game:
    while not game.is_over:
        game.play(bots[game.to_move].act(game, game.to_move))
    return game


def test_the_view_keeps_the_own_hand_and_the_play():
    game = game_after(4, 9)
    seat = game.to_move
    view = seat_view(game, seat)
    assert view.hands[seat] == game.hands[seat]
    assert view.played == game.played
    assert [t.winner for t in view.tricks] == [t.winner for t in game.tricks]
    assert view.legal_cards() == game.legal_cards()


def test_the_view_depends_only_on_what_the_seat_saw():
    game = game_after(5, 6)
    seat = game.to_move
    other = same_view_other_hands(game, seat, seed=11)
    assert any(other.hands[s] != game.hands[s] for s in Seat if s != seat)
    assert seat_view(other, seat).deal == seat_view(game, seat).deal


def test_random_bot_plays_a_whole_round_of_legal_cards():
    game = play_out([RandomBot(seed=s) for s in range(4)], Game(Deal.random(2), "S", "N", "EW"))
    assert game.is_over


def test_random_bot_repeats_itself_after_reset():
    bot = RandomBot(seed=9)
    first = play_out([bot] * 4, Game(Deal.random(3), "C", "W", "NS")).played
    bot.reset(9)
    assert play_out([bot] * 4, Game(Deal.random(3), "C", "W", "NS")).played == first


def test_random_bot_plays_every_legal_card_over_seeds():
    game = Game(Deal.random(1), "H", "E", "NS")
    assert {RandomBot(seed=s).act(game, "E") for s in range(200)} == set(game.legal_cards())


def test_a_bot_refuses_a_seat_not_to_move():
    with pytest.raises(SolverError, match="seat N is not to play: E is"):
        RandomBot().act(Game(Deal.random(1), "H", "E", "NS"), "N")


def test_a_bot_refuses_a_finished_round():
    game = play_out([RandomBot()] * 4, Game(Deal.random(1), "H", "E", "NS"))
    with pytest.raises(SolverError, match="the round is over"):
        RandomBot().act(game, game.leader)


def test_a_bot_that_chooses_an_illegal_card_is_stopped():
    class Stubborn(Bot):
        name = "stubborn"

        def choose(self, game, seat):
            return sorted(game.hands[seat.partner])[0]

    with pytest.raises(SolverError, match="stubborn chose"):
        Stubborn().act(Game(Deal.random(1), "H", "E", "NS"), "E")

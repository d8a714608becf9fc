"""The αμ bot: with one own move it is PIMC card for card, with one world every search depth
gives the solver's values, it plays legal cards in every round the package knows, and in a
position where PIMC fuses strategies it plays the card a single strategy makes best."""
import pytest

from solver import Card, Deal, Game, Rules, Solver, SolverError
from solver.bots import AlphaMuBot, PIMCBot, RandomBot, RuleBot, seat_view
from solver.bots.alphamu import card_totals
from solver.model.scoring import value_for_team


def rule_round(seed: int, cards: int, rules: Rules = Rules()) -> Game:
    """A round of Deal.random(seed) after `cards` cards of RuleBot's, its trump, leader and
    playing team drawn from the seed."""
    game = Game(Deal.random(seed), "SHDC"[seed % 4], "NESW"[seed // 4 % 4],
                "NS" if seed % 2 else "EW", rules)
    bot = RuleBot()
    for _ in range(cards):
        game.play(bot.act(game, game.to_move))
    return game


@pytest.mark.parametrize("seed", range(24))
def test_with_one_own_move_it_plays_pimcs_card(seed):
    game = rule_round(seed, 5 + seed)        # from trick 2 to trick 8
    seat = game.to_move
    assert AlphaMuBot(max_moves=1, worlds=8, seed=seed).act(game, seat) == \
        PIMCBot(worlds=8, seed=seed).act(game, seat)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("moves", [1, 2, 3])
def test_with_one_world_every_depth_gives_the_solvers_values(seed, moves):
    # Everything seen, nobody guesses: the fronts are single numbers, the minimax values.
    game = rule_round(seed, 16 + seed)
    solver = Solver()
    values = solver.move_values(game)
    expected = {card: value_for_team(v, game.to_move.team, game.playing)
                for card, v in values.items()}
    assert card_totals(game, [game.deal], moves, solver) == expected


ROUNDS = [
    (Rules(), {"trump": "H", "playing": "NS"}),
    (Rules(contract="ledig"), {"bidder": "S"}),
    (Rules(players=3), {"trump": "H", "playing": "NS", "dummy": "N"}),
    (Rules(contract="ledig", players=3), {"bidder": "S", "dummy": "N"}),
    (Rules(players=2), {"trump": "C", "playing": "EW"}),
    (Rules(contract="ledig", players=2), {"bidder": "W"}),
]


@pytest.mark.parametrize("rules, seats", ROUNDS,
                         ids=["trump", "ledig", "three players", "ledig at three",
                              "two players", "ledig at two"])
def test_it_plays_a_whole_round_of_legal_cards_in_every_kind_of_round(rules, seats):
    # The deeper search from trick 5: every own move past the first is searched too.
    game = Game(Deal.random(11), leader="E", rules=rules, **seats)
    alphamu, other = AlphaMuBot(max_moves=2, worlds=4, seed=3, deep_tricks=4), RandomBot(3)
    while not game.is_over:
        seat = game.to_move
        bot = alphamu if seat.team == game.leader.team else other
        card = bot.act(game, seat)
        assert card in game.legal_cards()
        game.play(card)


def test_where_pimc_fuses_strategies_it_plays_the_card_one_strategy_makes_best():
    # Found by search over rule-played endgames (trick 6, S to lead, 90 worlds possible).
    # Over the same 64 worlds PIMC credits CK with the best continuation of each world; but
    # S must then choose his next card without knowing the world, and one choice for all of
    # them brings CK less than HQ, which needs no guess.
    deal = Deal.from_pbn("N:T9.JT.AQ8.A K8.K7.JT.QT Q.AQ8.K.K98 AJ7.9.97.J7")
    game = Game(deal, "S", "N", "EW")
    game.replay("CA CQ C8 C7 DA DJ DK D7 D8 DT SQ D9 HA H9 HJ H7 H8 SJ HT HK S7 S9 S8")
    seat = game.to_move
    pimc = AlphaMuBot(max_moves=1, worlds=64, seed=1)
    alphamu = AlphaMuBot(max_moves=4, worlds=64, seed=1, deep_tricks=8)
    ck, hq = Card.parse("CK"), Card.parse("HQ")
    assert pimc.act(game, seat) == PIMCBot(worlds=64, seed=1).act(game, seat) == ck
    assert alphamu.act(game, seat) == hq
    fused, single = pimc.card_totals(seat_view(game, seat)), \
        alphamu.card_totals(seat_view(game, seat))
    assert single[ck] < fused[ck] and single[hq] == fused[hq] > single[ck]


@pytest.mark.parametrize("kwargs, message", [
    ({"max_moves": 0}, "max_moves must be a whole number from 1 to 8"),
    ({"worlds": 0}, "worlds must be a whole number from 1"),
    ({"deep_tricks": 9}, "deep_tricks must be a whole number from 1 to 8"),
])
def test_its_options_are_checked(kwargs, message):
    with pytest.raises(SolverError, match=message):
        AlphaMuBot(**kwargs)


def test_its_name_says_its_own_moves_and_worlds():
    assert AlphaMuBot(max_moves=3, worlds=12).name == "alphamu:3:12"

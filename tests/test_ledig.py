"""Ledig (docs/rules.md, "Ledig"): the rule options, the round's inputs and their checks."""
import pytest

from solver import Deal, Game, Rules, Seat, Team
from solver.errors import NotationError, RulesError, SolverError
from solver.engine.search import Solver, solve, solve_moves

DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
LEDIG = Rules(contract="ledig")
CHOSEN = Rules(contract="ledig", ledig_trump="chosen")


def test_the_new_options_default_and_round_trip():
    rules = Rules()
    assert (rules.contract, rules.ledig_trump, rules.ledig_bonus, rules.players,
            rules.dummy_open) == ("trump", "none", 50, 4, "after_lead")
    changed = Rules(contract="ledig", ledig_trump="chosen", ledig_bonus=0, players=3,
                    dummy_open="never")
    assert Rules.from_dict(changed.to_dict()) == changed
    # Rules written before these options existed still load, with the defaults.
    old = {k: v for k, v in Rules().to_dict().items()
           if k not in ("contract", "ledig_trump", "ledig_bonus", "players", "dummy_open")}
    assert Rules.from_dict(old) == Rules()


@pytest.mark.parametrize("options, named", [
    ({"contract": "nil"}, "contract"), ({"ledig_trump": "all"}, "ledig_trump"),
    ({"ledig_bonus": 1001}, "ledig_bonus"), ({"ledig_bonus": -1}, "ledig_bonus"),
    ({"ledig_bonus": 50.0}, "ledig_bonus"), ({"players": 5}, "players"),
    ({"players": "3"}, "players"), ({"players": True}, "players"),
    ({"dummy_open": "later"}, "dummy_open")])
def test_bad_values_name_the_option(options, named):
    with pytest.raises(RulesError, match=named):
        Rules(**options)


def test_a_ledig_round_takes_the_bidder_and_its_team_plays():
    game = Game(DEAL, leader="W", rules=LEDIG, bidder="S")
    assert (game.trump, game.bidder, game.playing, game.dummy) == (None, Seat.S, Team.NS, None)
    assert game.copy().bidder == Seat.S
    game = Game(DEAL, "H", "W", "EW", CHOSEN, bidder="E")
    assert (game.trump.letter, game.playing) == ("H", Team.EW)


def test_a_three_player_round_takes_the_dummy_and_its_team_plays():
    game = Game(DEAL, "H", "W", rules=Rules(players=3), dummy="N")
    assert (game.dummy, game.playing) == (Seat.N, Team.NS)
    assert game.copy().dummy == Seat.N


@pytest.mark.parametrize("args, kwargs, named", [
    ((DEAL,), dict(leader="W", rules=LEDIG), "bidder"),
    ((DEAL, "H", "W"), dict(rules=LEDIG, bidder="S"), "ledig_trump='none'"),
    ((DEAL,), dict(leader="W", rules=CHOSEN, bidder="S"), "trump suit"),
    ((DEAL,), dict(leader="W", playing="EW", rules=LEDIG, bidder="S"), "bidder=S is in team NS"),
    ((DEAL, "H", "W", "NS"), dict(bidder="S"), "for ledig rounds"),
    ((DEAL, "H", "W"), dict(rules=Rules(players=3)), "dummy"),
    ((DEAL, "H", "W", "EW"), dict(rules=Rules(players=3), dummy="N"), "dummy=N is in team NS"),
    ((DEAL, "H", "W", "NS"), dict(dummy="N"), "three-player"),
    ((DEAL, "H", "W", "NS"), dict(rules=Rules(players=2), dummy="N"), "three-player"),
    ((DEAL,), dict(leader="W", rules=Rules(contract="ledig", players=3), bidder="E", dummy="N"),
     "dummy=N is in team NS"),
])
def test_a_round_names_what_the_rules_miss_or_refuse(args, kwargs, named):
    with pytest.raises(RulesError, match=named):
        Game(*args, **kwargs)
    with pytest.raises(RulesError, match=named):
        Solver().game(*args, **kwargs)


@pytest.mark.parametrize("args", [(DEAL, "H", None, "NS"), (DEAL, None, "W", "NS"), (DEAL, "H", "W")])
def test_a_trump_round_without_trump_leader_or_team_is_refused_as_before(args):
    with pytest.raises(NotationError):
        Game(*args)


def test_every_entry_point_takes_bidder_and_dummy_by_name():
    three = Rules(players=3)
    assert solve(DEAL, "S", "S", rules=three, dummy="E").value == \
        solve(DEAL, "S", "S", "EW").value
    assert solve_moves(DEAL, "S", "S", rules=three, dummy="W") == \
        solve_moves(DEAL, "S", "S", "EW")
    assert Solver(three).solve(DEAL, "S", "S", dummy="E").value == -2


def test_the_engine_refuses_a_ledig_round_by_name_until_it_searches_one():
    with pytest.raises(SolverError, match="ledig"):
        solve(DEAL, leader="W", rules=LEDIG, bidder="S")


# -- the round in plain Python ---------------------------------------------------------------

def legal(game):
    return " ".join(str(c) for c in game.legal_cards())


def test_without_trump_only_following_suit_binds_and_the_plain_order_wins():
    game = Game(DEAL, leader="W", rules=LEDIG, bidder="S")
    game.play("HT")
    assert legal(game) == "H9 HQ HK"         # no duty to beat the ten
    game.replay("H9 HJ")
    assert legal(game) == "H7 H8 HA"
    game.play("HA")
    assert game.tricks[-1].winner == Seat.S  # the ace is the highest, hearts or not
    assert game.bidder_tricks() == 1 and game.tricks[-1].points == 0
    game.replay("SK S8 SA ST")               # N wins the spade: not the bidder
    assert game.bidder_tricks() == 1
    game.replay("C7 CT C9 CA")
    game.play("CK")                          # W leads clubs; E is void
    game.play("C8")
    assert legal(game) == "D8 DT DQ DK SJ"   # void: any card of any suit


def test_with_a_chosen_trump_every_duty_of_the_trump_game_binds():
    game = Game(DEAL, "H", "W", rules=Rules(contract="ledig", ledig_trump="chosen",
                                             trump_duty="rotterdam"), bidder="S")
    game.play("HT")
    assert legal(game) == "H9"               # the nine of trumps beats the ten
    game = Game(DEAL, "H", "W", rules=Rules(contract="ledig", ledig_trump="chosen",
                                             trump_duty="rotterdam"), bidder="S")
    game.replay("CA C7 CT C9 CK C8")
    assert legal(game) == "HJ"               # void in clubs: trump


def test_only_the_bidders_tricks_count():
    for lt, trump in (("none", None), ("chosen", "S")):
        rules = Rules(contract="ledig", ledig_trump=lt, ledig_bonus=70, roem="hand")
        game = Game(DEAL, trump, "W", rules=rules, bidder="N")
        while not game.is_over:
            game.play(game.legal_cards()[-1])
        taken = game.bidder_tricks()
        assert taken == sum(t.winner == Seat.N for t in game.tricks)
        assert game.tallies() == {Team.NS: game.tally("NS"), Team.EW: game.tally("EW")}
        assert all(t.total == 0 for t in game.tallies().values())
        assert game.objective_value("points") == -taken
        assert game.objective_value("make") == (taken == 0)
        assert game.objective_value("score") == (70 if taken == 0 else -70)
        scores = game.final_scores()
        assert (scores["NS"], scores["EW"]) == ((70, 0) if taken == 0 else (0, 70))

"""solver.openspiel: the klaverjas game in OpenSpiel, checked by OpenSpiel's own tests, and the
bot adapters both ways."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("solver.openspiel")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from solver import Card, Deal, Game, Rules, Seat, Solver, Suit, Team, encode  # noqa: E402
from solver.bots import RandomBot, RuleBot  # noqa: E402
from solver.errors import ActionError, NotationError, RulesError, SolverError  # noqa: E402
from solver.model.scoring import final_scores  # noqa: E402

CONFIGS = [{}, {"bidding": "draaikaart"}, {"use_double_dummy_result": True},
           {"bidding": "draaikaart", "rules": '{"roem": "hand", "undertrump": "must"}'}]


def dealt(game, seed, stop_at_player=True):
    """A new state of `game` with its chance nodes drawn from `seed`, up to the first player."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or (not stop_at_player and not state.is_terminal()):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def play_randomly(state, seed, cards):
    rng = np.random.RandomState(seed)
    for _ in range(cards):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# -- the game and its parameters ------------------------------------------------------------

def test_the_game_is_registered_under_its_name():
    assert "klaverjas" in pyspiel.registered_names()
    game = pyspiel.load_game("klaverjas")
    assert (game.num_players(), game.num_distinct_actions()) == (4, 34)
    assert game.information_state_tensor_shape() == [encode.SIZE]
    assert game.observation_tensor_shape() == [encode.SIZE]


@pytest.mark.parametrize("params", CONFIGS)
def test_a_game_string_loads_the_same_game(params):
    game = pyspiel.load_game("klaverjas", params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.get_parameters() == game.get_parameters()
    assert again.rules == game.rules and again.bidding == game.bidding


def test_rules_are_read_from_a_preset_or_json():
    assert pyspiel.load_game("klaverjas(rules=rotterdam)").rules == Rules.rotterdam()
    game = pyspiel.load_game("klaverjas", {"rules": '{"undertrump": "must", "pit_bonus": 50}'})
    assert game.rules == Rules(undertrump="must", pit_bonus=50)
    assert game.get_parameters()["rules"] == '{"pit_bonus": 50; "undertrump": "must"}'


@pytest.mark.parametrize("params, message", [
    ({"bidding": "auction"}, "bidding 'auction' is not allowed"),
    ({"rules": "leiden"}, "neither a preset"),
    ({"rules": '{"undertrump": "sometimes"}'}, "undertrump"),
])
def test_bad_parameters_are_errors_naming_them(params, message):
    with pytest.raises(SolverError, match=message):
        pyspiel.load_game("klaverjas", params)


@pytest.mark.parametrize("rules", [{"undertrump": "must", "pit_bonus": 50},
                                   Rules(undertrump="must", pit_bonus=50),
                                   '{"undertrump": "must", "pit_bonus": 50}'])
def test_rules_are_taken_as_a_dict_or_rules_where_python_passes_them(rules):
    wanted = Rules(undertrump="must", pit_bonus=50)
    assert openspiel.KlaverjasGame({"rules": rules}).rules == wanted
    assert openspiel.parse_rules(rules) == wanted
    # the game's own parameters stay strings, so its string loads it in OpenSpiel
    game = openspiel.KlaverjasGame({"rules": rules})
    assert pyspiel.load_game(str(game)).rules == wanted


@pytest.mark.parametrize("rules, message", [
    ('[1, 2]', "JSON object of options, got the JSON"), (3, "rules must be a Rules"),
    ({"undertrump": "sometimes"}, "undertrump"), ({"players": 3}, "table of four"),
])
def test_rules_of_the_wrong_kind_are_rules_errors(rules, message):
    with pytest.raises(RulesError, match=message):
        openspiel.parse_rules(rules)


def test_an_unknown_parameter_is_refused_by_openspiel():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'players'"):
        pyspiel.load_game("klaverjas", {"players": 3})


# -- OpenSpiel's own checks -----------------------------------------------------------------

@pytest.mark.parametrize("params", CONFIGS)
def test_random_simulations_pass_openspiels_checks(params):
    game = pyspiel.load_game("klaverjas", params)
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("params", CONFIGS)
def test_hundreds_of_random_simulations_pass_openspiels_checks(params):
    game = pyspiel.load_game("klaverjas", params)
    pyspiel.random_sim_test(game, num_sims=300, serialize=True, verbose=False)


def test_a_state_survives_serialization_midway():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    state = play_randomly(dealt(game, 4), 4, 2)
    while state.round is None:
        state.apply_action(openspiel.PASS)
    play_randomly(state, 5, 9)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history() and str(again) == str(state)


# -- the round --------------------------------------------------------------------------------

def test_the_deal_gives_card_k_to_seat_k_mod_4_then_draws_dealer_trump_and_team():
    game = pyspiel.load_game("klaverjas")
    state = game.new_initial_state()
    for index in range(32):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 32 - index
        state.apply_action(index)
    assert [o for o, _ in state.chance_outcomes()] == [0, 1, 2, 3]       # the dealer
    state.apply_action(int(Seat.W))
    assert len(state.chance_outcomes()) == 8
    state.apply_action(int(Suit.H) * 2 + int(Team.EW))
    round_ = state.round
    assert (round_.trump, round_.playing, round_.leader) == (Suit.H, Team.EW, Seat.N)
    assert set(round_.deal["E"]) == {Card.from_index(i) for i in range(1, 32, 4)}
    assert state.current_player() == 0
    assert state.legal_actions() == [c.index for c in round_.legal_cards()]


# -- every action not legal is refused, at chance nodes too --------------------------------

def draaikaart_bidding(seed=2):
    """A draaikaart state at the first bid."""
    state = dealt(pyspiel.load_game("klaverjas", {"bidding": "draaikaart"}), seed)
    assert state.current_player() >= 0 and state.round is None
    return state


@pytest.mark.parametrize("action", [5, 31, 0, 17, 34, 99])
def test_a_bid_that_is_not_pass_or_play_is_refused(action):
    state = draaikaart_bidding()
    with pytest.raises(ActionError, match=rf"action {action} is not allowed now \(. bids\): "
                                          rf"allowed are 32 33"):
        state.apply_action(action)
    assert state.bids == [] and len(state.history()) == 34     # the deal, dealer, turned suit


def test_the_same_card_cannot_be_dealt_twice():
    state = pyspiel.load_game("klaverjas").new_initial_state()
    state.apply_action(5)
    with pytest.raises(ActionError, match=r"action 5 is not allowed now \(chance deals card 2 "
                                          r"of 32\)"):
        state.apply_action(5)
    with pytest.raises(ActionError):
        state.apply_action(32)
    assert state.dealt == [5]


def chance_state(bidding, outcomes):
    state = pyspiel.load_game("klaverjas", {"bidding": bidding}).new_initial_state()
    for action in outcomes:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("bidding, before, action, phase", [
    ("chance", range(32), 7, "chance draws the dealer"),
    ("chance", [*range(32), 0], 50, "chance draws trump and the playing team"),
    ("chance", [*range(32), 0], 8, "chance draws trump and the playing team"),
    ("draaikaart", [*range(32), 0], 9, "chance turns a suit"),
    ("draaikaart", [*range(32), 0], 4, "chance turns a suit"),
])
def test_a_chance_outcome_that_cannot_happen_is_refused(bidding, before, action, phase):
    state = chance_state(bidding, before)
    with pytest.raises(ActionError, match=rf"action {action} is not allowed now \({phase}\)"):
        state.apply_action(action)


def test_a_card_not_legal_and_a_bid_in_the_play_are_refused():
    state = dealt(pyspiel.load_game("klaverjas"), 3)
    legal = state.legal_actions()
    for action in sorted(set(range(34)) - set(legal)):
        with pytest.raises(ActionError, match="plays a card"):
            state.apply_action(action)
    assert len(state.round.played) == 0


def test_no_action_is_taken_after_the_end():
    state = dealt(pyspiel.load_game("klaverjas", {"use_double_dummy_result": True}), 3)
    assert state.is_terminal()
    with pytest.raises(ActionError, match="the round is over"):
        state.apply_action(0)


@pytest.mark.parametrize("player", [9, -1, 4, 1.0, "N", None])
def test_a_player_that_is_not_one_is_named(player):
    state = dealt(pyspiel.load_game("klaverjas"), 3)
    with pytest.raises(NotationError, match="a klaverjas player must be a whole number from 0 "
                                            "to 3"):
        state.resample_from_infostate(player, np.random.RandomState(1).random_sample)
    with pytest.raises(NotationError):
        state.observation_array(player)
    with pytest.raises(NotationError):
        state.information_state(player)


@pytest.mark.parametrize("sampler", [None, lambda: 1.5, lambda: "x", lambda: -0.1])
def test_a_probability_sampler_that_gives_no_probability_is_named(sampler):
    state = dealt(pyspiel.load_game("klaverjas"), 3)
    with pytest.raises(SolverError, match="the probability sampler must"):
        state.resample_from_infostate(0, sampler)


def test_returns_are_the_team_score_differences_and_add_up_to_zero():
    game = pyspiel.load_game("klaverjas", {"rules": "rotterdam"})
    for seed in range(5):
        state = dealt(game, seed, stop_at_player=False)
        round_ = state.round
        scores = final_scores(round_.tallies(), round_.playing, round_.trump, round_.rules)
        ns = scores[Team.NS] - scores[Team.EW]
        assert state.returns() == [ns, -ns, ns, -ns]
        assert abs(ns) <= game.max_utility()


def test_draaikaart_the_first_seat_to_play_makes_its_team_the_playing_team():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    state = dealt(game, 1)
    first = state.leader
    assert state.current_player() == int(first) and state.legal_actions() == [32, 33]
    state.apply_action(openspiel.PASS)
    state.apply_action(openspiel.PLAY)
    assert state.round.playing == first.left.team and state.round.trump == state.turned
    assert state.round.leader == first and state.current_player() == int(first)


def test_draaikaart_when_all_pass_left_of_the_dealer_must_play():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    state = dealt(game, 2)
    for _ in range(4):
        assert state.round is None
        state.apply_action(openspiel.PASS)
    assert state.round.playing == state.dealer.left.team and state.round.trump == state.turned


def test_with_the_double_dummy_result_the_round_is_scored_by_the_solver():
    game = pyspiel.load_game("klaverjas", {"use_double_dummy_result": True})
    state = dealt(game, 3)
    assert state.is_terminal()
    value = Solver().value(state.round, "score")
    ns = value if state.round.playing == Team.NS else -value
    assert state.returns() == [ns, -ns, ns, -ns]


# -- what a player sees -----------------------------------------------------------------------

def test_the_information_state_tensor_is_the_encoders_observation():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    state = dealt(game, 6)
    state.apply_action(openspiel.PLAY)
    play_randomly(state, 6, 7)
    for player in range(4):
        want = encode.observation(state.round, player, state.turned, state.bids)
        assert np.array_equal(np.array(state.information_state_tensor(player), np.float32), want)
        assert np.array_equal(np.array(state.observation_tensor(player), np.float32), want)


def test_during_the_bidding_the_tensor_holds_the_hand_and_the_bids():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    state = dealt(game, 7)
    state.apply_action(openspiel.PASS)
    player = state.current_player()
    parts = encode.unpack(np.array(state.information_state_tensor(player)))
    assert parts["hand"].sum() == 8 and parts["to_move"][0] == 1
    assert parts["bids"].tolist() == [[0, 0], [0, 0], [0, 0], [1, 0]]   # the seat before passed
    assert parts["turned"][state.turned] == 1 and not parts["trump"].any()


def test_the_information_state_string_reads_as_a_person_writes_it():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    state = dealt(game, 8)
    state.apply_action(openspiel.PLAY)
    play_randomly(state, 8, 5)
    seat = Seat(state.current_player())
    text = state.information_state_string(int(seat))
    hand = " ".join(str(c) for c in sorted(state.round.hands[seat]))
    assert text.startswith(f"seat {seat}; hand {hand}; dealer {state.dealer}; turned ")
    assert f"bids: {state.leader} play" in text and "trick 1: " in text and "won by" in text
    assert text != state.information_state_string((int(seat) + 1) % 4)
    assert state.observation_string(int(seat)).count("\n") == 2


def test_resampled_states_keep_what_the_player_saw_and_every_card_legal():
    game = pyspiel.load_game("klaverjas", {"rules": "rotterdam"})
    state = play_randomly(dealt(game, 9), 9, 13)
    player = state.current_player()
    rng = np.random.RandomState(1)
    seen = set()
    for _ in range(10):
        # The resampled state replays the play with Game.play, which checks every duty.
        other = state.resample_from_infostate(player, rng.random_sample)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.legal_actions() == state.legal_actions()
        seen.add(other.round.deal)
    assert len(seen) > 1


def test_a_resample_is_fixed_by_the_sampler():
    game = pyspiel.load_game("klaverjas")
    state = play_randomly(dealt(game, 10), 10, 6)
    draws = [state.resample_from_infostate(2, np.random.RandomState(5).random_sample)
             for _ in range(2)]
    assert draws[0].round.deal == draws[1].round.deal


def test_openspiels_ismcts_plays_a_whole_round():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    rng = np.random.RandomState(2)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 300.0, 8,
                             random_state=np.random.RandomState(seat)) for seat in range(4)]
    state = dealt(game, 11)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    assert state.round.is_over and sum(state.returns()) == 0


# -- bots across the interfaces -----------------------------------------------------------

def test_state_from_game_is_the_same_position():
    game = Game(Deal.random(12), "S", "W", "EW", Rules.rotterdam())
    game.play(game.legal_cards()[0])
    state = openspiel.state_from_game(game)
    assert state.round.played == game.played and state.current_player() == int(game.to_move)
    for seat in Seat:
        assert np.array_equal(np.array(state.information_state_tensor(int(seat)), np.float32),
                              encode.observation(game, seat))


def play_round(bots, deal_seed):
    game = Game(Deal.random(deal_seed), "D", "N", "NS")
    while not game.is_over:
        game.play(bots[game.to_move].act(game, game.to_move))
    return game.played


def test_openspiels_ismcts_sits_at_our_table_and_repeats_for_a_seed():
    def table(seed):
        ours = openspiel.ismcts_bot(seed=seed, simulations=6)
        return [ours, RandomBot(1), openspiel.ismcts_bot(seed=seed + 1, simulations=6),
                RandomBot(2)]
    assert play_round(table(3), 13) == play_round(table(3), 13)


def test_an_ismcts_bot_copies_and_pickles_after_it_played():
    import copy
    import pickle
    game = Game(Deal.random(14), "C", "E", "EW")
    bot = openspiel.ismcts_bot(seed=2, simulations=4)
    bot.act(game, "E")
    for other in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert other.act(game, "E") in game.legal_cards() and other.name == bot.name


def test_the_arena_seats_ismcts_by_name():
    from solver.arena import make_bot
    bot = make_bot("openspiel:ismcts")
    assert isinstance(bot, openspiel.ISMCTSBot)


def test_the_arena_name_of_ismcts_and_its_settings_are_checked():
    assert openspiel.ISMCTSBot().name == "openspiel:ismcts:100"
    with pytest.raises(SolverError, match="simulations must be a whole number"):
        openspiel.ismcts_bot(simulations=0)
    with pytest.raises(SolverError, match="uct_c must be a number"):
        openspiel.ismcts_bot(uct_c="high")


def test_our_bots_play_in_openspiels_evaluate_bots():
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
    bots = [openspiel.PyspielBot(RuleBot(), seed=1), pyspiel.make_uniform_random_bot(1, 3),
            openspiel.PyspielBot(RandomBot(), seed=2), pyspiel.make_uniform_random_bot(3, 4)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.RandomState(1))
    assert len(returns) == 4 and sum(returns) == 0 and returns[0] == returns[2]


def test_the_plain_draaikaart_bid_plays_with_the_jack_and_another_trump():
    hand = [Card.parse(c) for c in "HJ H7 SA ST S8 CA C7 D8".split()]
    assert openspiel.plays_turned(hand, Suit.H) and not openspiel.plays_turned(hand, Suit.S)


def test_pyspielbot_refuses_what_is_not_our_bot():
    with pytest.raises(SolverError, match="needs one of our bots"):
        openspiel.PyspielBot(object())


@pytest.mark.parametrize("rules", ['{"contract": "ledig"}', '{"players": 3}'])
def test_the_openspiel_game_refuses_ledig_and_smaller_tables_by_name(rules):
    with pytest.raises(SolverError, match="trump game at a table of four"):
        openspiel.game.parse_rules(rules)


def test_an_action_string_of_a_trump_draw_that_cannot_be_is_named():
    state = pyspiel.load_game("klaverjas").new_initial_state()
    for action in [*range(32), 0]:
        state.apply_action(action)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "trump H, EW plays"
    with pytest.raises(ActionError, match="chance outcome 50 does not draw trump"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 50)

"""The bots: each plays only legal cards, a seeded bot repeats itself, a bot that cannot see
the hidden hands plays the same whatever they are, and the rules of RuleBot as written."""
import os

import numpy as np
import pytest

from solver import Card, Deal, Game, Rules, Seat, Solver, SolverError, encode, parse_cards
from solver.model.worlds import sample_worlds
from solver.arena import BOT_NAMES, make_bot
from solver.bots import AlphaMuBot, Bot, DDBot, PIMCBot, RandomBot, RuleBot, seat_view
from solver.bots.learned import LearnedBot
from solver.bots.policy import PolicyBot, PolicyModel, canonical, real_cards, suit_renaming
from solver.network import CardNetwork, default_network
from solver.errors import BotError
from solver.model.cards import ALL_CARDS


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


@pytest.mark.parametrize("rules, seats", [
    (Rules(contract="ledig"), {"bidder": "S"}),
    (Rules(players=3), {"trump": "H", "playing": "NS", "dummy": "N"}),
    (Rules(contract="ledig", players=3), {"bidder": "S", "dummy": "N"}),
], ids=["ledig", "three players", "ledig at three"])
def test_the_view_keeps_the_bidder_and_the_dummy(rules, seats):
    game = Game(Deal.random(6), leader="E", rules=rules, **seats)
    game.replay(game.legal_cards()[:1])
    view = seat_view(game, game.to_move)
    assert (view.bidder, view.dummy) == (game.bidder, game.dummy)
    assert PIMCBot(worlds=4, seed=1, margin=5).act(game, game.to_move) in game.legal_cards()


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


# -- a bot that cannot see, cannot see ---------------------------------------------------------

BLIND_BOTS = {
    "random": lambda: RandomBot(),
    "rule": lambda: RuleBot(),
    "pimc": lambda: PIMCBot(worlds=4),
    "alphamu": lambda: AlphaMuBot(max_moves=2, worlds=4),
    "policy": lambda: PolicyBot(PolicyModel.initial(hidden=16, seed=3)),
    "learned": lambda: LearnedBot(),
}


@pytest.mark.parametrize("name", sorted(BLIND_BOTS))
@pytest.mark.parametrize("seed, cards", [(1, 0), (2, 5), (3, 13), (4, 22)])
def test_a_blind_bot_plays_the_same_whatever_the_hidden_hands(name, seed, cards):
    game = game_after(seed, cards)
    seat = game.to_move
    for other_seed in (1, 2, 3):
        other = same_view_other_hands(game, seat, other_seed)
        bot, twin = BLIND_BOTS[name](), BLIND_BOTS[name]()
        for bot_seed in (5, 6):
            bot.reset(bot_seed)
            twin.reset(bot_seed)
            assert bot.act(game, seat) == twin.act(other, seat)


def test_the_cheating_bot_does_see_the_hidden_hands():
    # Some hidden deal of the same view changes DDBot's card: it is given the real game.
    game = game_after(7, 4)
    seat = game.to_move
    cards = {DDBot().act(same_view_other_hands(game, seat, s), seat) for s in range(30)}
    assert len(cards) > 1


def test_a_blind_bot_is_given_the_seat_view_not_the_game():
    seen = []

    class Peeking(Bot):
        def choose(self, game, seat):
            seen.append([sorted(game.hands[s]) for s in Seat])
            return game.legal_cards()[0]

    game = game_after(8, 6)
    seat = game.to_move
    Peeking().act(game, seat)
    Peeking().act(same_view_other_hands(game, seat, 4), seat)
    assert seen[0] == seen[1]


# -- RuleBot, rule by rule ----------------------------------------------------------------------

def dealt(**hands: str) -> Deal:
    """A deal where the named seats hold the given cards; the other cards fill the hands
    in card order, N first."""
    given = {Seat.parse(seat): parse_cards(cards) for seat, cards in hands.items()}
    rest = iter(sorted(set(ALL_CARDS) - {c for cards in given.values() for c in cards}))
    return Deal({seat: given.get(seat, []) + [next(rest) for _ in range(8 - len(given.get(seat, [])))]
                 for seat in Seat})


@pytest.mark.parametrize("hand, playing, card", [
    ("HJ H7 CA C7 D7 D8 S7 S8", "NS", "HJ"),     # 1: the top trump, to draw the others
    ("H7 H8 CA C7 D7 D8 S7 S8", "NS", "H7"),     # 1: no top trump: the lowest
    ("H7 H8 CA DA D8 S7 S8 C7", "EW", "CA"),     # 2: defending: cash a sure winner
    ("H7 H8 CK DK D8 S7 S8 C7", "EW", "C7"),     # 3: no sure winner: lead low
])
def test_rule_bot_leads(hand, playing, card):
    game = Game(dealt(N=hand), "H", "N", playing)
    assert RuleBot().act(game, "N") == Card.parse(card)


def test_rule_bot_lets_a_winning_partner_have_it_and_adds_a_ten():
    # E leads S7, partner S wins with SA, W follows: N, last, puts the ten under it (rule 4).
    game = Game(dealt(E="S7", S="SA", W="S8", N="ST S9 C7 C8 D7 D8 H7 H8"), "H", "E", "NS")
    game.replay("S7 SA S8")
    assert RuleBot().act(game, "N") == Card.parse("ST")


def test_rule_bot_trumps_the_opponents_trick_with_its_lowest_trump():
    game = Game(dealt(E="CA", S="C7", W="C8", N="HJ H9 H7 DA DT D7 SA ST"), "H", "E", "NS")
    game.replay("CA C7 C8")
    assert RuleBot().act(game, "N") == Card.parse("H7")


def test_rule_bot_discards_low_when_it_cannot_win():
    game = Game(dealt(E="CA", S="C7", W="CK", N="DA DT DK D7 SA ST SK S7"), "H", "E", "NS")
    game.replay("CA C7 CK")
    assert RuleBot().act(game, "N") == Card.parse("D7")


def test_rule_bot_is_deterministic():
    game = game_after(10, 9)
    assert {RuleBot(seed=s).act(game, game.to_move) for s in range(5)} == \
        {RuleBot().act(game, game.to_move)}


# -- DDBot, PIMCBot ---------------------------------------------------------------------------

def test_dd_bot_plays_an_optimal_card_at_every_turn():
    solver = Solver()
    game = Game(Deal.random(12), "S", "W", "EW")
    while not game.is_over:
        values = solver.move_values(game)
        sign = 1 if game.to_move.team == game.playing else -1
        best = max(sign * v for v in values.values())
        card = DDBot().act(game, game.to_move)
        assert sign * values[card] == best
        game.play(card)


def test_pimc_bot_plays_the_best_mean_card_of_its_view():
    from solver import analyse_view
    from solver.model.streams import derive
    game = game_after(13, 6)
    bot = PIMCBot(worlds=6, seed=4)
    view = analyse_view(seat_view(game, game.to_move), worlds=6, seed=derive(4, 6), workers=1)
    assert bot.act(game, game.to_move) == view.best_cards[0]


def test_pimc_bot_under_a_time_budget_stops_early():
    game = Game(Deal.random(14), "C", "N", "NS")
    bot = PIMCBot(worlds=400, time_budget=0.001)
    view = bot.view(seat_view(game, "N"))
    assert len(view.worlds) < 400
    assert bot.act(game, "N") in game.legal_cards()


def test_pimc_bot_with_a_margin_stops_once_the_choice_is_clear():
    from solver.analysis.view import analyse_view_until
    from solver.model.streams import derive
    game = game_after(13, 20)
    seat = game.to_move
    bot = PIMCBot(worlds=64, seed=4, margin=5)
    view = bot.view(seat_view(game, seat))
    assert 4 <= len(view.worlds) < 64 and view.is_clear(5)
    # Each batch of four worlds before the last left the choice open.
    for worlds in range(4, len(view.worlds), 4):
        shorter = analyse_view_until(seat_view(game, seat), lambda v: False, batch=4,
                                     most=worlds, seed=derive(4, 20), workers=1)
        assert not shorter.is_clear(5)
    assert bot.act(game, seat) == view.best_cards[0]
    assert PIMCBot(worlds=64, seed=4, margin=5).act(game, seat) == view.best_cards[0]


def test_a_view_is_clear_when_the_best_card_is_within_the_margin_everywhere():
    from solver.analysis.view import CardStats, ViewAnalysis
    from solver import Card
    a, b = Card.parse("SA"), Card.parse("S7")

    def view(values):
        cards = {card: CardStats(sum(v) / len(v), 0.0, 0.0, 0.0) for card, v in values.items()}
        return ViewAnalysis(Seat.N, "points", cards, [], 0, values)
    assert view({a: [30, 10, 20, 40], b: [10, -10, 0, 20]}).is_clear(0.5)   # 20 better each time
    # b as good on average, 1 better or worse by turns: at most 1.84 better at 97.5%
    close = view({a: [30, 10, 20, 40], b: [31, 9, 21, 39]})
    assert close.is_clear(2.5) and not close.is_clear(1.5)
    assert not view({a: [30, 10], b: [0, 30]}).is_clear(5)    # b could be far better
    assert view({a: [30]}).is_clear(5)                        # the only card


@pytest.mark.parametrize("kwargs, message", [
    ({"worlds": 0}, "worlds must be a whole number from 1"),
    ({"margin": 0}, "margin must be a number of points above 0"),
    ({"margin": True}, "margin must be a number of points"),
    ({"time_budget": 0}, "time_budget must be a number of seconds above 0"),
    ({"time_budget": "fast"}, "time_budget must be a number of seconds"),
    ({"objective": "win"}, "unknown objective 'win'"),
])
def test_pimc_bot_options_are_checked(kwargs, message):
    with pytest.raises(SolverError, match=message):
        PIMCBot(**kwargs)


# -- LearnedBot ------------------------------------------------------------------------------

# Every kind of round a bot is dealt: (rules, the seats that set it up).
ROUNDS = {
    "trump": (Rules(), dict(trump="H", playing="NS")),
    "three players": (Rules(players=3), dict(trump="S", playing="EW", dummy="W")),
    "two players": (Rules(players=2), dict(trump="C", playing="NS")),
    "ledig": (Rules(contract="ledig"), dict(bidder="S")),
    "ledig at three": (Rules(contract="ledig", players=3), dict(bidder="S", dummy="N")),
}
TRUMP_ROUNDS = ["trump", "three players", "two players"]


@pytest.mark.parametrize("kind", TRUMP_ROUNDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_learned_player_plays_whole_trump_rounds_at_every_table(kind, seed):
    rules, seats = ROUNDS[kind]
    game = play_out([LearnedBot()] * 4, Game(Deal.random(seed), leader="E", rules=rules,
                                             **seats))
    assert game.is_over and len(game.played) == 32


@pytest.mark.parametrize("kind", ["ledig", "ledig at three"])
def test_the_learned_player_refuses_a_contract_its_network_never_learnt(kind):
    rules, seats = ROUNDS[kind]
    assert default_network().info["labels"]["rules"]["contract"] == "trump"
    game = Game(Deal.random(4), leader="E", rules=rules, **seats)
    with pytest.raises(BotError, match="learned plays trump rounds, the contract its network "
                                       "was trained on, not a ledig round"):
        LearnedBot().act(game, "E")


@pytest.mark.parametrize("kind", sorted(ROUNDS))
def test_a_network_that_does_not_say_what_it_learnt_plays_every_round(kind):
    rules, seats = ROUNDS[kind]
    bot = LearnedBot(CardNetwork(default_network().layers))       # no info: no refusal
    game = play_out([bot] * 4, Game(Deal.random(5), leader="E", rules=rules, **seats))
    assert game.is_over


def test_the_learned_player_plays_the_legal_card_its_network_scores_highest():
    game = game_after(8, 6)
    seat = game.to_move
    scores = default_network().scores(encode.observation(game, seat))[0]
    best = max(game.legal_cards(), key=lambda c: scores[c.index])
    assert LearnedBot().act(game, seat) == best


def test_learned_names_the_shipped_network_and_learned_path_a_file(tmp_path):
    assert make_bot("learned").name == "learned"
    assert make_bot("learned").network is default_network()
    CardNetwork.initial((4, 4), seed=1).save(tmp_path / "mine.npz")
    bot = make_bot(f"learned:{tmp_path / 'mine.npz'}")
    assert bot.name == "learned:mine.npz" and bot.network.hidden_sizes == (4, 4)
    with pytest.raises(BotError, match="network file '.*gone.npz' does not exist"):
        make_bot(f"learned:{tmp_path / 'gone.npz'}")
    with pytest.raises(BotError, match="LearnedBot needs a CardNetwork"):
        LearnedBot("mine.npz")


# -- PolicyBot -------------------------------------------------------------------------------

def test_a_policy_model_survives_saving_and_loading(tmp_path):
    model = PolicyModel.initial(hidden=8, seed=2)
    model.save(tmp_path / "m.npz")
    back = PolicyModel.load(tmp_path / "m.npz")
    x = encode.observation(game_after(3, 3), game_after(3, 3).to_move)
    assert np.allclose(model.scores(x), back.scores(x))
    assert PolicyBot.load(tmp_path / "m.npz").name == "policy:m.npz"


def test_a_policy_file_that_is_not_one_is_named(tmp_path):
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    with pytest.raises(BotError, match="policy file '.*junk.npz' is not a policy model"):
        PolicyModel.load(tmp_path / "junk.npz")
    with pytest.raises(BotError, match="does not exist"):
        PolicyModel.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "shape.npz", w1=np.zeros((3, 4)), b1=np.zeros(4), w2=np.zeros((4, 32)),
             b2=np.zeros(32), meta=np.array(["klaverjas-policy-mlp-1", ""]))
    with pytest.raises(BotError, match=rf"w1 must have shape \({encode.SIZE}, 4\)"):
        PolicyModel.load(tmp_path / "shape.npz")


def good_arrays(hidden=4):
    model = PolicyModel.initial(hidden=hidden, seed=1)
    return dict(w1=model.w1, b1=model.b1, w2=model.w2, b2=model.b2,
                meta=np.array(["klaverjas-policy-mlp-1", "[]"]))


# name -> (what to change in a good file, the words of the error)
CRAFTED = {
    "1-D w1": (dict(w1=np.zeros(encode.SIZE)), "w1 must have shape"),
    "3-D w2": (dict(w2=np.zeros((4, 32, 2))), "w2 must have shape"),
    "short b1": (dict(b1=np.zeros(3)), r"b1 must have shape \(4,\)"),
    "long b2": (dict(b2=np.zeros(33)), r"b2 must have shape \(32,\)"),
    "no hidden units": (dict(w1=np.zeros((encode.SIZE, 0)), b1=np.zeros(0),
                         w2=np.zeros((0, 32))), "needs at least one hidden unit"),
    "string weights": (dict(w1=np.full((encode.SIZE, 4), "x")), "w1 must hold numbers"),
    "boolean weights": (dict(b2=np.ones(32, bool)), "b2 must hold numbers"),
    "NaN weights": (dict(w2=np.full((4, 32), np.nan)), "w2 holds a number that is not finite"),
    "empty meta": (dict(meta=np.array([], dtype=str)), "not a policy model of format"),
    "numeric meta": (dict(meta=np.zeros(2)), "not a policy model of format"),
    "other format": (dict(meta=np.array(["other-format"])), "not a policy model of format"),
    "no b2": (dict(b2=None), "has no 'b2' array"),
}


def write_crafted(path, change):
    arrays = {**good_arrays(), **change}
    np.savez(path, **{k: v for k, v in arrays.items() if v is not None})
    return path


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_a_crafted_policy_file_is_refused_naming_the_file_and_the_fault(tmp_path, case):
    change, message = CRAFTED[case]
    path = write_crafted(tmp_path / "crafted.npz", change)
    with pytest.raises(BotError, match=f"policy file '.*crafted.npz'.*{message}"):
        PolicyModel.load(path)
    with pytest.raises(BotError, match=message):
        make_bot(f"policy:{path}")


def test_the_crafted_files_fail_for_their_change_alone(tmp_path):
    assert PolicyModel.load(write_crafted(tmp_path / "good.npz", {})).w1.shape == (encode.SIZE, 4)


@pytest.mark.parametrize("content, message", [
    (b"", "is not a policy model written by PolicyModel.save"),          # /dev/null, empty
    (b"PK\x03\x04 broken zip", "is not a policy model written by PolicyModel.save"),
])
def test_a_file_that_is_no_model_at_all_is_named(tmp_path, content, message):
    (tmp_path / "m.npz").write_bytes(content)
    with pytest.raises(BotError, match=message):
        PolicyModel.load(tmp_path / "m.npz")


def test_a_npy_file_a_folder_and_the_null_device_are_no_models(tmp_path):
    np.save(tmp_path / "one.npy", np.zeros(3))
    for path in (tmp_path / "one.npy", tmp_path, "/dev/null"):
        with pytest.raises(BotError, match="policy file"):
            PolicyModel.load(path)
    with pytest.raises(BotError, match="policy file '/dev/null' is not a policy model"):
        make_bot("policy:/dev/null")


@pytest.mark.parametrize("path", [None, 3, ["m.npz"]])
def test_a_policy_path_that_is_no_path_is_named(path):
    with pytest.raises(BotError, match="a policy file must be a path"):
        PolicyModel.load(path)
    with pytest.raises(BotError, match="a policy file must be a path"):
        PolicyModel.initial(hidden=2).save(path)


def test_saving_into_a_folder_or_a_missing_folder_is_named(tmp_path):
    model = PolicyModel.initial(hidden=2)
    with pytest.raises(BotError, match="it is a folder"):
        model.save(tmp_path)
    with pytest.raises(BotError, match="no folder '.*missing'"):
        model.save(tmp_path / "missing" / "m.npz")


def test_a_policy_model_refuses_arrays_that_do_not_fit():
    arrays = good_arrays()
    with pytest.raises(BotError, match="w2 must have shape"):
        PolicyModel(arrays["w1"], arrays["b1"], arrays["w1"], arrays["b2"])
    with pytest.raises(BotError, match="b1 must be an array of numbers"):
        PolicyModel(arrays["w1"], [[1], [1, 2]], arrays["w2"], arrays["b2"])
    with pytest.raises(BotError, match="info must be a dict"):
        PolicyModel(arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"], info="x")


def test_the_trump_first_picture_is_the_same_for_every_trump():
    # The same cards with the suits renamed and trump renamed along: one canonical picture.
    deal = Deal.random(15)
    pictures = []
    for shift in range(4):
        renamed = Deal([[Card((c.suit + shift) % 4, c.rank) for c in deal[s]] for s in Seat])
        game = Game(renamed, shift, "E", "NS")
        x = encode.observation(game, "E")[None]
        pictures.append(np.delete(canonical(x)[0], encode.layout()["trump"].slice))
    assert all(np.array_equal(pictures[0], p) for p in pictures[1:])


def test_the_trump_first_picture_renames_the_hands_a_player_sees_too():
    # At a table of two E sees W's hand (the block `seen`): renamed with the suits as his own.
    deal = Deal.random(16)
    pictures = []
    for shift in range(4):
        renamed = Deal([[Card((c.suit + shift) % 4, c.rank) for c in deal[s]] for s in Seat])
        game = Game(renamed, shift, "E", "NS", Rules(players=2))
        x = encode.observation(game, "E")[None]
        assert encode.unpack(x)["seen"].any()
        pictures.append(np.delete(canonical(x)[0], encode.layout()["trump"].slice))
    assert all(np.array_equal(pictures[0], p) for p in pictures[1:])


def test_scores_come_back_in_real_card_order():
    trumps = np.array([0, 1, 2, 3])
    scores = real_cards(np.tile(np.arange(32.0), (4, 1)), trumps)
    for trump in range(4):      # canonical card 0 (trump seven) is the real trump seven
        assert scores[trump, trump * 8] == 0.0


def test_a_suit_renaming_must_name_each_suit_once():
    with pytest.raises(BotError, match="name each suit 0..3 once"):
        suit_renaming([0, 0, 1, 2])


# -- bots by name ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, kind", [("random", RandomBot), ("rule", RuleBot), ("dd", DDBot),
                                        ("pimc:8", PIMCBot), ("pimc:8@0.5", PIMCBot),
                                        ("pimc:8~5", PIMCBot), ("pimc:8@0.5~2.5", PIMCBot),
                                        ("alphamu:2:16", AlphaMuBot)])
def test_bots_by_name(name, kind):
    bot = make_bot(name)
    assert isinstance(bot, kind) and bot.name == name


@pytest.mark.parametrize("name, message", [
    ("pimc", "the worlds of pimc must be a whole number"), ("pimc:0", "from 1 to 100000"),
    ("rule:3", "unknown bot 'rule:3'"), ("", "unknown bot ''"), (7, "a bot must be a Bot"),
    ("policy:", "unknown bot 'policy:'"), ("pimc:8@", "the time budget of pimc:8@ must be"),
    ("pimc:8@-1", "must be a number of seconds above 0, got '-1'"),
    ("pimc:8~", "the margin of pimc:8~ must be a number of points above 0, got ''"),
    ("pimc:8~0", "must be a number of points above 0"), ("pimc:8@x~5", "the time budget of"),
    ("openspiel:ismcts:0", "the simulations of openspiel:ismcts:0 must be a whole number"),
    # isdigit() takes "²" and Arabic-Indic digits, which int() refuses or reads
    ("pimc:²", "the worlds of pimc:² must be a whole number"),
    ("pimc:٣", "the worlds of pimc:٣ must be a whole number"),
    ("openspiel:ismcts:²", "the simulations of openspiel:ismcts:² must be a whole number"),
    ("openspiel:ismcts:1:2", "the simulations of openspiel:ismcts:1:2 must be a whole number "
                             ".*got '1:2'"),
    # float() reads " 1", "1_0" and "٣" too: a number is written plainly
    ("pimc:8@ 1", "the time budget of pimc:8@ 1 must be a number of seconds above 0"),
    ("pimc:8@1_0", "the time budget of pimc:8@1_0 must be"),
    ("pimc:8~٣", "the margin of pimc:8~٣ must be"),
    ("random:", "unknown bot 'random:'"), ("dd:", "unknown bot 'dd:'"),
    ("openspiel:", "unknown bot 'openspiel:'"), ("openspiel:mcts", "unknown bot"),
    ("alphamu", "alphamu must say its own moves and worlds"),
    ("alphamu:2", "alphamu:2 must say its own moves and worlds, alphamu:M:W"),
    ("alphamu:9:16", "the own moves of alphamu:9:16 must be a whole number from 1 to 8"),
    ("alphamu:2:0", "the worlds of alphamu:2:0 must be a whole number from 1"),
    ("alphamu:2:16:1", "the worlds of alphamu:2:16:1 must be a whole number"),
])
def test_a_bad_bot_name_is_named(name, message):
    with pytest.raises(BotError, match=message):
        make_bot(name)


def test_every_bot_name_is_listed():
    assert BOT_NAMES == ("random", "rule", "dd", "pimc:N", "alphamu:M:W", "learned",
                         "learned:PATH", "policy:PATH", "openspiel:ismcts", "module:Class")


def test_a_bot_class_of_ones_own_by_module_and_class(monkeypatch):
    monkeypatch.syspath_prepend("examples")
    bot = make_bot("highest_card_bot:HighestCard")
    assert type(bot).__name__ == "HighestCard" and bot.name == "highest"
    assert isinstance(make_bot("solver.bots:PIMCBot"), PIMCBot)


@pytest.mark.parametrize("name, message", [
    ("no_such_module_here:Bot", "bot 'no_such_module_here:Bot': no module named "
                                "'no_such_module_here' \\(is its folder on PYTHONPATH"),
    ("solver.bots.nothing:X", "no module named 'solver.bots.nothing'"),
    ("solver.bots:Nothing", "module solver.bots has no Nothing"),
    ("solver.bots:seat_view", "seat_view is not a Bot class"),
    ("json:JSONDecoder", "JSONDecoder is not a Bot class"),
    ("solver.bots:Bot", "Bot\\(\\) failed: TypeError"),
    ("solver.bots.policy:PolicyBot", "PolicyBot\\(\\) failed: TypeError"),
    ("my bots:X", "unknown bot 'my bots:X'"),
])
def test_a_bad_module_or_class_is_refused_by_name(name, message):
    with pytest.raises(BotError, match=message):
        make_bot(name)


def test_a_module_that_fails_on_import_is_named(tmp_path, monkeypatch):
    (tmp_path / "broken_bots.py").write_text("import no_such_dependency_here\n")
    (tmp_path / "raising_bots.py").write_text("1 / 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotError, match="importing broken_bots failed: No module named "
                                       "'no_such_dependency_here'"):
        make_bot("broken_bots:X")
    with pytest.raises(BotError, match="importing raising_bots failed: ZeroDivisionError"):
        make_bot("raising_bots:X")


def test_a_time_budget_by_name():
    bot = make_bot("pimc:64@0.25")
    assert bot.worlds == 64 and bot.time_budget == 0.25
    bot = make_bot("pimc:64@0.25~4")
    assert (bot.worlds, bot.time_budget, bot.margin) == (64, 0.25, 4.0)


def test_openspiel_ismcts_sits_at_the_arena_where_openspiel_is_installed():
    pytest.importorskip("pyspiel")
    from solver.arena import play_arena
    result = play_arena("openspiel:ismcts:4", "rule", deals=1, seed=2, workers=1)
    assert result.bots["a"].name == "openspiel:ismcts:4" and result.bots["a"].cards > 0


# -- examples/train_policy.py ----------------------------------------------------------------

def train_policy_script():
    import importlib.util
    spec = importlib.util.spec_from_file_location("train_policy", "examples/train_policy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_example_runs_on_the_workers_it_is_given(torch, monkeypatch, capsys):
    script = train_policy_script()
    asked = []

    def recorded(real):
        def call(*args, workers=None, **kwargs):
            asked.append(workers)
            return real(*args, workers=1, **kwargs)     # one process here, whatever was asked
        return call
    monkeypatch.setattr(script, "generate", recorded(script.generate))
    monkeypatch.setattr(script, "play_arena", recorded(script.play_arena))
    script.main(["--workers", "2", "--deals", "4", "--epochs", "1", "--arena-deals", "1",
                 "--hidden", "4"])
    assert asked == [2, 2, 2]       # the labels, then the arena against random and rule
    assert "learned:policy.npz against rule" in capsys.readouterr().out


def test_the_training_example_limits_numpys_threads_before_importing_it(monkeypatch):
    script = train_policy_script()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    script.limit_numpy_threads(["--deals", "4", "--workers", "3"])
    assert os.environ["OPENBLAS_NUM_THREADS"] == os.environ["OMP_NUM_THREADS"] == "3"
    monkeypatch.setenv("OMP_NUM_THREADS", "1")      # the user's own setting stays
    script.limit_numpy_threads(["--workers=2"])
    assert os.environ["OMP_NUM_THREADS"] == "1"


@pytest.mark.parametrize("workers", ["0", "two", "²"])
def test_the_training_example_refuses_a_bad_worker_count(workers, capsys):
    with pytest.raises(SystemExit):
        train_policy_script().main(["--workers", workers])
    assert "argument --workers: must be a whole number of at least 1" in capsys.readouterr().err

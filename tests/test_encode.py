"""solver.encode: the observation of one seat as an array, holding only what that seat saw."""
import random
import re

import numpy as np
import pytest

from solver import (Card, Deal, Game, Rules, Seat, Solver, Suit, Team, encode, sample_worlds,
                    solve_moves)
from solver.errors import LabelsError, SolverError
from solver.labels import (NOT_LEGAL, LabelConfig, deal_rows, generate, load, row_game,
                           run_config)


def random_game(seed, cards, rules=None):
    """A round with `cards` random legal cards played."""
    rng = random.Random(seed)
    game = Game(Deal.random(seed), Suit(rng.randrange(4)), Seat(rng.randrange(4)),
                Team(rng.randrange(2)), rules)
    for _ in range(cards):
        game.play(rng.choice(game.legal_cards()))
    return game


def block(x, name):
    return encode.unpack(x)[name]


# -- the layout -----------------------------------------------------------------------------

def test_layout_blocks_tile_the_array_in_order():
    end = 0
    for name, b in encode.layout().items():
        assert b.name == name and b.slice.start == end
        end = b.slice.stop
    assert end == encode.SIZE


def test_every_block_says_what_it_means():
    assert all(b.meaning for b in encode.layout().values())


def test_the_guides_table_of_blocks_is_the_layout():
    from pathlib import Path
    page = Path(__file__).resolve().parents[1] / "docs" / "guides" / "bots-environments.md"
    rows = re.findall(r"^\| `(\w+)` \| (\d+)\.\.(\d+) \| (\([\d, ]+\)) \| (.+) \|$",
                      page.read_text(encoding="utf-8"), flags=re.M)
    assert rows == [(b.name, str(b.slice.start), str(b.slice.stop - 1), str(b.shape), b.meaning)
                    for b in encode.layout().values()]


def test_unpack_gives_each_block_in_its_shape_also_for_a_batch():
    x = np.arange(encode.SIZE * 3, dtype=np.float32).reshape(3, encode.SIZE)
    parts = encode.unpack(x)
    assert parts["played_in_trick"].shape == (3, 8, 32)
    assert parts["bids"][1, 2, 1] == x[1, encode.layout()["bids"].slice][5]


def test_unpack_refuses_an_array_of_another_size():
    with pytest.raises(SolverError, match=f"an observation has {encode.SIZE} numbers"):
        encode.unpack(np.zeros(10))


# -- what the blocks hold ---------------------------------------------------------------------

def test_start_of_the_round_holds_the_hand_trump_team_leader_and_turn():
    game = Game(Deal.random(3), "S", "E", "EW")
    x = encode.observation(game, "N")
    assert x.dtype == np.float32 and set(np.unique(x)) <= {0.0, 1.0}
    assert sorted(np.flatnonzero(block(x, "hand"))) == sorted(c.index for c in game.deal["N"])
    assert block(x, "trump").tolist() == [0, 0, 0, 1]
    assert block(x, "playing").tolist() == [0, 1]          # EW plays: the other team for N
    assert block(x, "leader").tolist() == [0, 1, 0, 0]     # E is left of N
    assert block(x, "to_move").tolist() == [0, 1, 0, 0]
    assert block(x, "position").tolist() == [1, 0, 0, 0]
    assert block(x, "trick").tolist() == [1] + [0] * 7
    for name in ("played_by", "played_in_trick", "current_trick", "turned", "bids"):
        assert not block(x, name).any(), name


def test_cards_played_are_marked_with_their_player_relative_to_the_observer_and_trick():
    game = random_game(5, 6)
    seat = Seat.S
    x = encode.observation(game, seat)
    by, trick = block(x, "played_by"), block(x, "played_in_trick")
    replay = Game(game.deal, game.trump, game.leader, game.playing)
    for card in game.played:
        player, number = replay.to_move, replay.trick_number
        assert by[:, card.index].tolist() == [int((player - seat) % 4 == r) for r in range(4)]
        assert trick[:, card.index].tolist() == [int(number - 1 == t) for t in range(8)]
        replay.play(card)
    assert by.sum() == trick.sum() == 6


def test_the_current_trick_and_position_show_the_cards_on_the_table():
    game = random_game(8, 10)       # two cards into trick 3
    seat = game.to_move
    x = encode.observation(game, seat)
    table = block(x, "current_trick")
    assert sorted(np.flatnonzero(table.sum(axis=0))) == sorted(c.index for c in game.current_trick)
    assert table[3].any() and table[2].any() and not table[0].any() and not table[1].any()
    assert block(x, "position").tolist() == [0, 0, 1, 0]
    assert block(x, "trick").tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert block(x, "to_move")[0] == 1


def test_a_finished_round_has_no_turn_trick_or_position():
    x = encode.observation(random_game(2, 32), "W")
    assert block(x, "played_by").sum() == 32 and not block(x, "hand").any()
    for name in ("to_move", "position", "trick", "current_trick"):
        assert not block(x, name).any(), name


def test_the_turned_suit_and_bids_are_marked_for_the_bidders_relative_to_the_observer():
    game = Game(Deal.random(4), "D", "N", "EW")
    x = encode.observation(game, "E", turned=Suit.D, bids=[("N", False), ("E", True)])
    assert block(x, "turned").tolist() == [0, 1, 0, 0]
    assert block(x, "bids").tolist() == [[0, 1], [0, 0], [0, 0], [1, 0]]


def test_bidding_observation_has_the_same_layout_with_no_play():
    deal = Deal.random(6)
    x = encode.bidding_observation(deal["W"], "W", leader="N", to_move="E", turned=Suit.H,
                                   bids=[("N", False)])
    assert block(x, "hand").sum() == 8 and not block(x, "trump").any()
    assert block(x, "leader").tolist() == [0, 1, 0, 0]
    assert block(x, "to_move").tolist() == [0, 0, 1, 0]
    assert block(x, "bids").tolist() == [[0, 0], [1, 0], [0, 0], [0, 0]]


# -- only what the seat saw -----------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_worlds_the_seat_cannot_tell_apart_give_the_same_array(seed):
    game = random_game(seed, seed * 2 + 1)
    seat = Seat(seed % 4)
    x = encode.observation(game, seat)
    for world in sample_worlds(game, seat, 5, seed=seed):
        other = Game(world, game.trump, game.leader, game.playing)
        other.replay(game.played)
        assert np.array_equal(encode.observation(other, seat), x)


def test_another_hand_for_the_observer_gives_another_array():
    game = random_game(1, 5)
    seat = game.to_move
    world = sample_worlds(game, seat.left, 20, seed=1)
    differs = [w for w in world if w[seat] != game.deal[seat]]
    assert differs
    other = Game(differs[0], game.trump, game.leader, game.playing)
    other.replay(game.played)
    assert not np.array_equal(encode.observation(other, seat), encode.observation(game, seat))


def test_turning_the_table_gives_the_same_array_for_the_turned_seat():
    game = random_game(9, 13)
    turned = Deal([game.deal[Seat((s - 1) % 4)] for s in Seat])    # every hand one seat on
    other = Game(turned, game.trump, game.leader.left, game.playing.other)
    other.replay(game.played)
    for seat in Seat:
        assert np.array_equal(encode.observation(other, seat.left), encode.observation(game, seat))


def test_different_play_orders_give_different_arrays():
    seen = set()
    for seed in range(20):
        game = random_game(100, 0)
        rng = random.Random(seed)
        for _ in range(9):
            game.play(rng.choice(game.legal_cards()))
        seen.add((tuple(game.played), encode.observation(game, Seat.N).tobytes()))
    assert len({p for p, _ in seen}) == len({x for _, x in seen})


# -- label rows ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rows():
    config = LabelConfig(positions="all", rules=Rules.rotterdam(), play="random")
    return config, deal_rows(config, 3, Solver(config.rules))


def test_row_game_is_the_round_at_the_rows_position(rows):
    config, found = rows
    for row in found:
        game = row_game(row, config.rules)
        assert int(game.to_move) == row["to_move"]
        assert [c.index for c in game.played] == [i for i in row["played"] if i >= 0]
        legal = {c.index for c in game.legal_cards()}
        assert legal == {i for i in range(32) if row["values"][i] != NOT_LEGAL}


def test_from_row_is_the_observation_of_the_seat_to_move(rows):
    config, found = rows
    for row in found[::5]:
        game = row_game(row, config.rules)
        assert np.array_equal(encode.from_row(row, config.rules),
                              encode.observation(game, game.to_move))


def test_from_columns_encodes_a_loaded_labels_folder(tmp_path):
    config = LabelConfig(deals=2, positions="trick-starts", format="npz")
    generate(config, tmp_path)
    columns = load(tmp_path)
    x = encode.from_columns(columns)          # the columns carry their run's rules
    assert x.shape == (len(columns["played"]), encode.SIZE)
    row = {name: columns[name][3] for name in columns}
    assert np.array_equal(x[3], encode.from_row(row, config.rules))


def test_from_columns_reads_a_pandas_frame(tmp_path):
    pd = pytest.importorskip("pandas")
    config = LabelConfig(deals=1, positions="trick-starts", format="npz")
    generate(config, tmp_path)
    columns = load(tmp_path)
    frame = pd.DataFrame({name: list(values) for name, values in columns.items()})
    assert np.array_equal(encode.from_columns(frame, columns.rules), encode.from_columns(columns))
    assert np.array_equal(encode.from_row(frame.iloc[2], columns.rules),
                          encode.from_columns(columns)[2])


def test_a_row_without_a_column_is_an_error_naming_it():
    with pytest.raises(LabelsError, match="no 'played' column"):
        encode.from_row({"deal": np.arange(32) % 4, "trump": 0, "leader": 0, "playing": 0},
                        Rules())


def test_a_row_whose_play_is_impossible_is_an_error_naming_the_column():
    row = {"deal": np.arange(32) % 4, "trump": 0, "leader": 0, "playing": 0,
           "played": np.array([9] + [-1] * 31)}
    with pytest.raises(LabelsError, match="column 'played' is not a play of this deal"):
        row_game(row, Rules())


def test_a_row_whose_deal_is_not_a_deal_is_an_error_naming_the_column():
    row = {"deal": np.zeros(32, dtype=np.int8), "trump": 0, "leader": 0, "playing": 0,
           "played": np.full(32, -1)}
    with pytest.raises(LabelsError, match="column 'deal' is not a deal"):
        row_game(row, Rules())


def test_a_row_whose_to_move_disagrees_is_an_error():
    row = {"deal": np.arange(32) % 4, "trump": 0, "leader": 0, "playing": 0,
           "played": np.full(32, -1), "to_move": 2}
    with pytest.raises(LabelsError, match="column 'to_move' says S"):
        row_game(row, Rules())


def test_row_columns_may_be_numpy_integers():
    row = {"deal": (np.arange(32) % 4).astype(np.int8), "trump": np.int8(1),
           "leader": np.int8(2), "playing": np.int8(1), "played": np.full(32, -1, np.int8)}
    game = row_game(row, Rules())
    assert (game.trump, game.leader, game.playing) == (Suit.D, Seat.S, Team.EW)
    assert set(game.deal["E"]) == {Card.from_index(i) for i in range(1, 32, 4)}


# -- label rows of every contract and table, read back under their run's rules ----------------

RUNS = {
    "trump, rotterdam": dict(rules=Rules.rotterdam()),
    "ledig without trump": dict(rules=Rules(contract="ledig")),
    "ledig with trump": dict(rules=Rules(contract="ledig", ledig_trump="chosen")),
    "three players": dict(rules=Rules(players=3)),
    "three players, ledig": dict(rules=Rules(players=3, contract="ledig")),
    "two players": dict(rules=Rules(players=2)),
}


@pytest.fixture(scope="module", params=list(RUNS))
def label_run(request, tmp_path_factory):
    """A small labels folder of each kind, its rows loaded and the rules its manifest holds."""
    out = tmp_path_factory.mktemp("labels")
    generate(LabelConfig(deals=3, seed=5, positions="trick-starts", play="random",
                         format="npz", **RUNS[request.param]), out, workers=1)
    return request.param, load(out), run_config(out).rules


def one_row(columns, i):
    return {name: columns[name][i] for name in columns}


def test_run_config_gives_the_rules_the_run_wrote(label_run):
    name, _, rules = label_run
    assert rules == RUNS[name]["rules"]


def test_every_row_reads_back_as_the_round_whose_values_it_holds(label_run):
    _, columns, rules = label_run
    for i in range(len(columns["played"])):
        row = one_row(columns, i)
        game = row_game(row, rules)
        assert game.rules == rules and int(game.to_move) == row["to_move"]
        assert game.bidder == (None if "bidder" not in row else Seat(row["bidder"]))
        assert game.dummy == (None if "dummy" not in row else Seat(row["dummy"]))
        assert game.trump == (None if row["trump"] == -1 else Suit(row["trump"]))
        values = solve_moves(game.deal, game.trump, game.leader, game.playing, game.rules,
                             game.played, bidder=game.bidder, dummy=game.dummy)
        mine = np.full(32, NOT_LEGAL)
        for card, value in values.items():
            mine[card.index] = value if game.to_move.team == game.playing else -value
        assert mine.tolist() == row["values"].tolist(), i


def test_from_columns_is_the_observation_of_each_rows_player_under_the_runs_rules(label_run):
    _, columns, rules = label_run
    x = encode.from_columns(columns, rules)
    assert x.shape == (len(columns["played"]), encode.SIZE)
    for i in range(0, len(x), 3):
        game = row_game(one_row(columns, i), rules)
        assert np.array_equal(x[i], encode.observation(game, game.to_move))


def test_rows_are_never_read_back_without_their_rules(label_run):
    """A row does not say its rules, and rules guessed can give the same legal cards and
    other values: without the run's rules a row is refused, saying where they are."""
    _, columns, _ = label_run
    with pytest.raises(LabelsError, match="does not repeat: give rules=.*run_config"):
        row_game(one_row(columns, 1))
    with pytest.raises(LabelsError, match="does not repeat: give rules=.*run_config"):
        encode.from_row(one_row(columns, 1))
    with pytest.raises(LabelsError, match="does not repeat: give rules=.*run_config"):
        encode.from_columns(dict(columns))    # plain columns, without the run's options


def test_the_columns_load_gives_are_read_under_their_runs_rules_alone(label_run):
    _, columns, rules = label_run
    assert columns.rules == rules
    assert np.array_equal(encode.from_columns(columns), encode.from_columns(dict(columns), rules))
    other = Rules.rotterdam() if rules != Rules.rotterdam() else Rules()
    with pytest.raises(LabelsError, match="were written under"):
        encode.from_columns(columns, other)


@pytest.mark.parametrize("name", ["ledig without trump", "three players"])
def test_a_row_read_under_another_runs_rules_is_refused_naming_the_column(name, tmp_path):
    out = tmp_path / "labels"
    generate(LabelConfig(deals=1, seed=5, positions="trick-starts", format="npz",
                         **RUNS[name]), out, workers=1)
    with pytest.raises(LabelsError, match="'(bidder|dummy|trump)'.*run_config"):
        row_game(one_row(load(out), 1), Rules())


@pytest.mark.parametrize("rules, column", [
    (Rules(contract="ledig"), "bidder"), (Rules(players=3), "dummy")])
def test_a_row_without_the_column_its_rules_need_is_refused_naming_it(rules, column):
    row = deal_rows(LabelConfig(positions="root", rules=rules), 0, Solver(rules))[0]
    del row[column]
    with pytest.raises(LabelsError, match=f"no '{column}' column, which a"):
        row_game(row, rules)


def test_a_row_read_under_rules_that_make_its_legal_cards_illegal_is_refused():
    """Rotterdam's trump duty differs from Amsterdam's (the default): a row where the legal
    cards differ is refused, naming `values`, not read back as a round of other rules."""
    config = LabelConfig(positions="all", play="random", rules=Rules.rotterdam())
    refused = 0
    for deal_id in range(6):
        for row in deal_rows(config, deal_id, Solver(config.rules)):
            game = row_game(row, config.rules)
            amsterdam = Game(game.deal, game.trump, game.leader, game.playing)
            amsterdam.replay(game.played)
            if set(amsterdam.legal_cards()) != set(game.legal_cards()):
                with pytest.raises(LabelsError, match="column .values. gives .*run_config"):
                    row_game(row, Rules())
                refused += 1
    assert refused > 0


# -- the contract, ledig's bidder, and the hands a player sees ---------------------------------

def ledig(bidder, rules=Rules(contract="ledig")):
    return Game(Deal.random(11), leader="W", rules=rules, bidder=bidder)


def test_the_observation_tells_which_seat_bid_ledig():
    by_n, by_s = encode.observation(ledig("N"), "E"), encode.observation(ledig("S"), "E")
    assert not np.array_equal(by_n, by_s)
    assert block(by_n, "bidder").tolist() == [0, 0, 0, 1]      # N is right of E
    assert block(by_s, "bidder").tolist() == [0, 1, 0, 0]      # S is left of E


def test_the_contract_block_says_trump_or_ledig():
    assert block(encode.observation(ledig("N"), "E"), "contract").tolist() == [0, 1]
    trump = Game(Deal.random(11), "H", "W", "NS")
    x = encode.observation(trump, "E")
    assert block(x, "contract").tolist() == [1, 0] and not block(x, "bidder").any()


def test_ledig_without_trump_has_an_all_zero_trump_block_as_the_layout_says():
    x = encode.observation(ledig("N"), "E")
    assert not block(x, "trump").any()
    assert "ledig round without trump" in encode.layout()["trump"].meaning
    chosen = Rules(contract="ledig", ledig_trump="chosen")
    x = encode.observation(Game(Deal.random(11), "D", "W", rules=chosen, bidder="N"), "E")
    assert block(x, "trump").tolist() == [0, 1, 0, 0]


def three(dummy="N", rules=Rules(players=3)):
    return Game(Deal.random(12), "S", "E", rules=rules, dummy=dummy)


def test_the_chooser_at_a_table_of_three_sees_the_dummys_hand():
    game = three()
    x = encode.observation(game, "S")           # S plays N's hand too
    hands = {Card.from_index(i) for i in np.flatnonzero(block(x, "seen")[2])}
    assert hands == set(game.deal["N"]) and block(x, "seen")[[0, 1, 3]].sum() == 0
    assert block(x, "dummy").tolist() == [0, 0, 1, 0]
    for_dummy = block(encode.observation(game, "N"), "seen")      # N's turn: S plays it
    assert {Card.from_index(i) for i in np.flatnonzero(for_dummy[2])} == set(game.deal["S"])


def test_a_defender_sees_the_dummys_hand_once_the_lead_is_on_the_table():
    game = three()
    assert not block(encode.observation(game, "E"), "seen").any()
    game.play(game.legal_cards()[0])
    seen = block(encode.observation(game, "E"), "seen")
    assert {Card.from_index(i) for i in np.flatnonzero(seen[3])} == game.hands[Seat.N]
    assert seen[[0, 1, 2]].sum() == 0


def test_a_player_at_a_table_of_two_sees_his_partners_hand():
    game = Game(Deal.random(13), "C", "N", "EW", Rules(players=2))
    x = encode.observation(game, "W")
    assert {Card.from_index(i) for i in np.flatnonzero(block(x, "seen")[2])} == set(game.deal["E"])
    assert not block(encode.observation(Game(game.deal, "C", "N", "EW"), "W"), "seen").any()


@pytest.mark.parametrize("rules, extra", [
    (Rules(players=3), dict(dummy="N")), (Rules(players=3, dummy_open="never"), dict(dummy="E")),
    (Rules(players=2), {}), (Rules(contract="ledig"), dict(bidder="W"))])
def test_worlds_the_player_cannot_tell_apart_give_the_same_array_at_every_table(rules, extra):
    from solver.model.worlds import same_round
    for seed in range(4):
        game = Game(Deal.random(seed), None if rules.contract == "ledig" else "H", "S",
                    None if extra else "NS", rules, **extra)
        rng = random.Random(seed)
        for _ in range(seed * 3 + 1):
            game.play(rng.choice(game.legal_cards()))
        seat = game.to_move
        x = encode.observation(game, seat)
        for world in sample_worlds(game, seat, 4, seed=seed):
            other = same_round(game, world)
            other.replay(game.played)
            assert np.array_equal(encode.observation(other, seat), x)

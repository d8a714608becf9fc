"""The card network (solver.network): its forward pass for any number of hidden layers, its
file (format 2, and format 1 as PolicyModel.save wrote it), every way a file can be refused,
and the network shipped in the package."""

import numpy as np
import pytest

from solver import Deal, Game, Rules, encode
from solver.bots import RandomBot
from solver.bots.policy import PolicyModel
from solver.errors import BotError
from solver.network import (FORMAT, FORMAT_1, SHIPPED, CardNetwork, canonical, default_network,
                            load_network, real_cards, trumps_of)


def observations(rows=6, seed=1):
    """Observations of the player to move along a random round, trump changing per row."""
    xs = []
    for i in range(rows):
        game = Game(Deal.random(seed + i), i % 4, "E", "NS")
        bot = RandomBot(seed=i)
        for _ in range(i * 5 % 31):
            game.play(bot.act(game, game.to_move))
        xs.append(encode.observation(game, game.to_move))
    return np.stack(xs)


@pytest.mark.parametrize("hidden", [(), (7,), (9, 5), (4, 6, 3)])
def test_scores_are_the_layers_applied_to_the_trump_first_picture(hidden):
    network = CardNetwork.initial(hidden, seed=2)
    x = observations()
    h = canonical(x)
    for w, b in network.layers[:-1]:
        h = np.maximum(h @ w + b, 0)
    expected = real_cards(h @ network.layers[-1][0] + network.layers[-1][1], trumps_of(x))
    assert network.hidden_sizes == hidden
    assert np.allclose(network.scores(x), expected, atol=1e-5)
    assert np.allclose(network.scores(x[2]), network.scores(x)[2:3], atol=1e-6)


def test_a_network_survives_saving_and_loading_exactly(tmp_path):
    network = CardNetwork.initial((12, 8), seed=3)
    network.info.update(command="klaverjas train --labels L --out F", rows=10)
    network.save(tmp_path / "n.npz")
    back = load_network(tmp_path / "n.npz")
    assert back.hidden_sizes == (12, 8)
    assert np.array_equal(back.scores(observations()), network.scores(observations()))
    assert back.info == {"command": "klaverjas train --labels L --out F", "rows": 10,
                         "file": str(tmp_path / "n.npz")}


def test_float16_storage_halves_the_file_and_rounds_the_weights(tmp_path):
    network = CardNetwork.initial((64, 64), seed=4)
    network.save(tmp_path / "full.npz")
    network.save(tmp_path / "half.npz", storage="float16")
    half = load_network(tmp_path / "half.npz")
    assert (tmp_path / "half.npz").stat().st_size < 0.6 * (tmp_path / "full.npz").stat().st_size
    assert half.layers[0][0].dtype == np.float32
    assert np.allclose(half.scores(observations()), network.scores(observations()), atol=0.02)
    with pytest.raises(BotError, match="storage must be one of float32, float16"):
        network.save(tmp_path / "x.npz", storage="int8")


def test_a_format_1_file_still_loads(tmp_path):
    # What PolicyModel.save wrote before format 2: w1, b1, w2, b2 and a meta of two strings.
    (w1, b1), (w2, b2) = CardNetwork.initial(5, seed=5).layers
    np.savez(tmp_path / "old.npz", w1=w1, b1=b1, w2=w2, b2=b2,
             meta=np.array([FORMAT_1, repr([])]))
    for loaded in (load_network(tmp_path / "old.npz"), PolicyModel.load(tmp_path / "old.npz")):
        assert loaded.hidden_sizes == (5,)
        assert np.array_equal(loaded.scores(observations()),
                              CardNetwork([(w1, b1), (w2, b2)]).scores(observations()))


def test_a_file_of_another_version_says_which_format_and_what_to_do(tmp_path):
    network = CardNetwork.initial(4, seed=1)
    network.save(tmp_path / "n.npz")
    with np.load(tmp_path / "n.npz") as data:
        arrays = dict(data)
    arrays["meta"] = np.array(["klaverjas-card-network-3", "{}"])
    np.savez(tmp_path / "newer.npz", **arrays)
    with pytest.raises(BotError, match=r"network file '.*newer.npz' is a card network of format "
                       r"klaverjas-card-network-3, which this version .* does not read .*"
                       r"train it again with `klaverjas train`"):
        load_network(tmp_path / "newer.npz")


def crafted(tmp_path, **change):
    """A good two-hidden-layer file with the arrays of `change` replaced (None: left out)."""
    CardNetwork.initial((4, 3), seed=1).save(tmp_path / "good.npz")
    with np.load(tmp_path / "good.npz") as data:
        arrays = {**dict(data), **change}
    np.savez(tmp_path / "crafted.npz", **{k: v for k, v in arrays.items() if v is not None})
    return tmp_path / "crafted.npz"


@pytest.mark.parametrize("change, message", [
    (dict(b3=None), "has no 'b3' array"),
    (dict(w1=None, b1=None, w2=None, b2=None, w3=None, b3=None), "has no 'w1' array"),
    (dict(meta=None), "has no 'meta' array"),
    (dict(w2=np.zeros((5, 3))), r"w2 must have shape \(4, 3\) \(hidden units, hidden units"),
    (dict(w3=np.zeros((3, 31))), r"w3 must have shape \(3, 32\) \(hidden units, cards"),
    (dict(b2=np.zeros(4)), r"b2 must have shape \(3,\)"),
    (dict(w2=np.zeros((4, 0)), b2=np.zeros(0), w3=np.zeros((0, 32))),
     "needs at least one hidden unit"),
    (dict(b1=np.full(4, np.inf)), "b1 holds a number that is not finite"),
    (dict(meta=np.array([FORMAT, "not json"])), "has no info in its meta array"),
    (dict(meta=np.array([FORMAT])), "has no info in its meta array"),
    (dict(meta=np.array(["something-else", "{}"])), f"is not a card network of format {FORMAT}"),
], ids=["no b3", "no weights", "no meta", "w2 too wide", "w3 too narrow", "short b2",
        "empty layer", "infinite bias", "info not JSON", "no info", "not our format"])
def test_a_crafted_network_file_is_refused_naming_the_file_and_the_fault(tmp_path, change,
                                                                         message):
    path = crafted(tmp_path, **change)
    with pytest.raises(BotError, match=f"network file '.*crafted.npz'.*{message}"):
        load_network(path)


def test_the_crafted_network_files_fail_for_their_change_alone(tmp_path):
    assert load_network(crafted(tmp_path)).hidden_sizes == (4, 3)


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 broken zip", b"not a model"])
def test_a_corrupt_or_missing_network_file_is_named(tmp_path, content):
    (tmp_path / "m.npz").write_bytes(content)
    with pytest.raises(BotError, match="network file '.*m.npz' is not a card network written "
                                       "by CardNetwork.save"):
        load_network(tmp_path / "m.npz")
    with pytest.raises(BotError, match="network file '.*gone.npz' does not exist"):
        load_network(tmp_path / "gone.npz")
    with pytest.raises(BotError, match="is a folder"):
        load_network(tmp_path)


def test_a_policy_model_names_a_deeper_network_as_one_to_play_as_learned(tmp_path):
    CardNetwork.initial((4, 3), seed=1).save(tmp_path / "deep.npz")
    with pytest.raises(BotError, match="policy file '.*deep.npz': it has 2 hidden layers, a "
                                       "policy model one: play it as learned:PATH"):
        PolicyModel.load(tmp_path / "deep.npz")


def test_a_network_refuses_info_json_cannot_write_and_layers_that_are_not_pairs():
    layers = CardNetwork.initial(3).layers
    with pytest.raises(BotError, match="info must be what JSON can write"):
        CardNetwork(layers, {"when": object()})
    with pytest.raises(BotError, match=r"layers must be \(weights, bias\) pairs"):
        CardNetwork([np.zeros(3)])
    with pytest.raises(BotError, match="needs at least one layer"):
        CardNetwork([])
    with pytest.raises(BotError, match="scores observations"):
        CardNetwork(layers).scores(np.zeros(5))


def test_the_shipped_network_loads_once_read_only_and_says_how_it_was_trained():
    network = default_network()
    assert default_network() is network
    assert network.info["file"] == str(SHIPPED)
    info = network.info
    assert info["command"].startswith("klaverjas train --labels ")
    assert info["rows"] > 0 and isinstance(info["options"]["seed"], int)
    folders = info["labels"].get("folders", [info["labels"]])     # one labels run or several
    assert all(f["command"].startswith("klaverjas labels ") and f["worlds"] > 0 for f in folders)
    with pytest.raises(ValueError, match="read-only"):
        network.layers[0][0][0, 0] = 1.0
    assert SHIPPED.stat().st_size < 2_000_000


@pytest.mark.parametrize("rules", [Rules(), Rules(contract="ledig"), Rules(players=3),
                                   Rules(players=2)], ids=["trump", "ledig", "three", "two"])
def test_the_shipped_network_scores_every_kind_of_round(rules):
    seats = dict(bidder="S") if rules.contract == "ledig" else dict(trump="H", playing="NS")
    if rules.players == 3:
        seats["dummy"] = "N"
    game = Game(Deal.random(3), leader="E", rules=rules, **seats)
    scores = default_network().scores(encode.observation(game, "E"))
    assert scores.shape == (1, 32) and np.isfinite(scores).all()

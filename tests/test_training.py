"""Training a card network (solver.training, `klaverjas train`) with PyTorch: the same seed and
rows give the same weights, NumPy's forward pass of the saved file is PyTorch's, the epoch kept
is the best held out, and what cannot be trained is refused by name.

PyTorch is the [train] extra: without it the tests that use the `torch` fixture (conftest.py)
skip, except where KLAVERJAS_REQUIRE_TORCH is set (CI), where a missing PyTorch is a failure."""
import sys

import numpy as np
import pytest

from solver import Rules, encode
from solver.arena import make_bot, play_arena
from solver.cli import main
from solver.errors import TrainingError
from solver.labels import LabelConfig, generate
from solver.network import canonical, load_network, real_cards, trumps_of
from solver.training import TrainingOptions, train, training_rows
from solver.training.fit import module


@pytest.fixture(scope="module")
def labels(tmp_path_factory):
    """A tiny labels folder with sd_values: 20 deals, every position, one world a row."""
    folder = tmp_path_factory.mktemp("labels")
    generate(LabelConfig(deals=20, seed=5, positions="all", play="mixed:0.5", worlds=1,
                         skip_forced=True, format="npz", deals_per_shard=10), folder, workers=1)
    return folder


@pytest.fixture(scope="module")
def rows(labels):
    return training_rows(labels)


SMALL = dict(hidden=16, layers=2, epochs=2, batch=64)


def test_the_same_seed_and_rows_give_the_same_weights(torch, rows):
    # PyTorch fits on one thread whatever the caller's setting, and leaves that setting as it was.
    torch.set_num_threads(2)
    first = train(rows, TrainingOptions(seed=3, **SMALL))
    again = train(rows, TrainingOptions(seed=3, **SMALL))
    other = train(rows, TrainingOptions(seed=4, **SMALL))
    for (w, b), (w2, b2) in zip(first.layers, again.layers):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    assert not np.array_equal(first.layers[0][0], other.layers[0][0])
    assert torch.get_num_threads() == 2


@pytest.mark.parametrize("storage", ["float32", "float16"])
def test_numpy_plays_the_saved_file_as_pytorch_computes_it(torch, rows, tmp_path, storage):
    train(rows, TrainingOptions(seed=1, **SMALL)).save(tmp_path / "n.npz", storage=storage)
    network = load_network(tmp_path / "n.npz")
    model = module(torch, 16, 2)
    linear = [m for m in model if hasattr(m, "weight")]
    with torch.no_grad():
        for m, (w, b) in zip(linear, network.layers):
            m.weight.copy_(torch.from_numpy(w.T.copy()))
            m.bias.copy_(torch.from_numpy(b))
        xc = rows.features[:200].astype(np.float32)
        expected = model(torch.from_numpy(xc)).numpy()
    assert np.allclose(network.forward(xc), expected, atol=1e-5)


def test_scores_put_the_canonical_outputs_back_in_real_card_order(torch, rows):
    network = train(rows, TrainingOptions(seed=1, **SMALL))
    x = np.stack([encode.observation(*position) for position in positions()])
    assert np.allclose(network.scores(x), real_cards(network.forward(canonical(x)),
                                                     trumps_of(x)), atol=1e-6)


def positions():
    from solver import Deal, Game
    for trump in range(4):
        game = Game(Deal.random(trump), trump, "E", "NS")
        yield game, "E"


def test_the_epoch_kept_is_the_best_held_out_and_the_info_says_how_it_was_made(torch, rows):
    network = train(rows, TrainingOptions(seed=2, **{**SMALL, "epochs": 4}))
    info = network.info
    lost = [e["points_lost"] for e in info["history"]]
    assert info["epoch_kept"] == 1 + lost.index(min(lost))
    assert info["held_out_points_lost"] == pytest.approx(min(lost), abs=1e-3)
    assert info["rows"] == len(rows) == info["rows_learnt"] + info["rows_held_out"]
    assert info["options"]["seed"] == 2 and info["labels"]["worlds"] == 1


def test_klaverjas_train_writes_a_network_the_arena_plays(torch, labels, tmp_path, capsys):
    out = tmp_path / "mine.npz"
    status = main(["train", "--labels", str(labels), "--out", str(out), "--hidden", "8",
                   "--epochs", "1", "--seed", "7", "--storage", "float16", "--quiet"])
    assert status == 0, capsys.readouterr().err
    assert f"play it as learned:{out}" in capsys.readouterr().out
    network = load_network(out)
    assert network.info["command"] == (f"klaverjas train --labels {labels} --out {out} "
                                       f"--hidden 8 --epochs 1 --seed 7 --storage float16 --quiet")
    assert network.hidden_sizes == (8, 8) and network.info["options"]["seed"] == 7
    assert make_bot(f"learned:{out}").name == "learned:mine.npz"
    result = play_arena(f"learned:{out}", "rule", deals=1, seed=1, workers=1)
    assert result.bots["a"].cards > 0


def test_labels_without_sd_values_are_named(torch, tmp_path):
    generate(LabelConfig(deals=2, positions="root", format="npz"), tmp_path / "l", workers=1)
    with pytest.raises(TrainingError, match=r"labels folder '.*l' has no sd_values column: "
                                            r"write the labels with --worlds N"):
        training_rows(tmp_path / "l")


def test_too_few_deals_to_hold_some_out_are_named(torch, rows):
    few = rows.subset(rows.deal_id < 9)         # deal 0 held out, no other row is
    with pytest.raises(TrainingError, match="too few"):
        train(few.subset(few.deal_id == 0), TrainingOptions(**SMALL))


@pytest.mark.parametrize("change, message", [
    (dict(hidden=0), "hidden must be a whole number from 1"),
    (dict(layers=9), "layers must be a whole number from 1 to 8"),
    (dict(rate=0), "rate must be a number above 0"),
    (dict(choice_weight=-1.0), "choice_weight must be a number above 0"),
    (dict(epochs=1.5), "epochs must be a whole number"),
])
def test_training_options_are_checked(change, message):
    with pytest.raises(TrainingError, match=message):
        TrainingOptions(**change)


def test_without_pytorch_the_command_names_the_train_extra(labels, tmp_path, capsys,
                                                          monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)     # what `import torch` meets uninstalled
    status = main(["train", "--labels", str(labels), "--out", str(tmp_path / "n.npz")])
    assert status == 2
    assert "needs PyTorch, which is not installed: python -m pip install " \
           "'klaverjas-solver[train]'" in capsys.readouterr().err
    assert not (tmp_path / "n.npz").exists()


def test_the_output_file_is_checked_before_any_work(labels, tmp_path, capsys):
    status = main(["train", "--labels", str(labels), "--out", str(tmp_path / "no" / "n.npz")])
    assert status == 2 and "argument --out: cannot write" in capsys.readouterr().err


def test_the_target_is_the_centred_mean_over_the_worlds_and_the_deal_as_dealt(labels, rows):
    from solver.labels import load
    from solver.network import canonical_cards
    columns = load(labels)
    sd, dealt = columns["sd_values"].astype(float), columns["values"].astype(float)
    legal = ~np.isnan(sd)
    for row in (0, 17, len(rows) - 1):
        cards = legal[row]
        mean = (sd[row, cards] + dealt[row, cards]) / 2            # one world a row, and the deal
        expected = np.zeros(32)
        expected[cards] = (mean - mean.mean()) / 100
        trump = np.argmax(encode.unpack(rows.features[row])["trump"])
        assert np.allclose(rows.target[row], canonical_cards(expected[None], np.array([trump]))[0],
                           atol=1e-6)
    alone = training_rows(labels, dealt=False)
    assert not np.allclose(alone.target, rows.target)
    assert np.array_equal(alone.legal, rows.legal) and np.array_equal(alone.features, rows.features)


def test_several_folders_of_one_rules_are_learnt_together(labels, rows, tmp_path):
    # A second run (another seed) adds its rows; its deals are numbered after the first's,
    # so that every deal keeps a number of its own and held-out deals stay whole.
    second = tmp_path / "second"
    generate(LabelConfig(deals=10, seed=6, positions="all", play="mixed:0.5", worlds=1,
                         skip_forced=True, format="npz", deals_per_shard=10), second, workers=1)
    both = training_rows([labels, second])
    alone = training_rows(second)
    assert len(both) == len(rows) + len(alone)
    assert np.array_equal(both.deal_id[len(rows):], alone.deal_id + 20)
    assert np.array_equal(both.features[len(rows):], alone.features)
    assert [f["folder"] for f in both.labels["folders"]] == [str(labels), str(second)]
    assert both.labels["rules"] == rows.labels["rules"]


def test_folders_of_other_rules_are_refused_by_name(labels, tmp_path):
    other = tmp_path / "rotterdam"
    generate(LabelConfig(deals=2, seed=6, positions="root", worlds=1, format="npz",
                         rules=Rules.rotterdam()), other, workers=1)
    with pytest.raises(TrainingError, match="rotterdam' was written under other rules"):
        training_rows([labels, other])

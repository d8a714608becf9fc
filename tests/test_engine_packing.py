"""How the engine takes cards (solver.engine.packing): hands as 32-bit sets and a spec's trump,
owned by the engine layer; the batch hands it rows and leaves the bits to it; and when a
round's spec depends on its deal."""
import ast
import pathlib
import pickle

import numpy as np
import pytest

import solver
from solver import Deal, Game, Rules
from solver.batch import deal_row
from solver.engine import _engine
from solver.engine.packing import hand_mask, hand_masks, spec_trump
from solver.engine.search import engine_spec, spec_reads_deal
from solver.model.cards import Seat, Suit

# The package as imported: where the tests run on an installed wheel, its own files.
PACKAGE = pathlib.Path(solver.__file__).resolve().parent


def test_a_hand_is_the_set_of_its_card_indices():
    deal = Deal.random(3)
    for seat in Seat:
        mask = hand_mask(deal[seat])
        assert [i for i in range(32) if mask >> i & 1] == sorted(c.index for c in deal[seat])


@pytest.mark.parametrize("make", [lambda deal: Deal(deal.hands),
                                  lambda deal: Deal._dealt([[c.index for c in hand]
                                                            for hand in deal.hands])],
                         ids=["Deal()", "Deal._dealt"])
def test_a_deal_keeps_its_hands_as_the_engines_sets(make):
    """The solver's call reads a deal's hands from the sets it made with them."""
    for seed in range(20):
        deal = make(Deal.random(seed))
        assert deal._masks == tuple(hand_mask(deal[seat]) for seat in Seat)


def test_a_pickled_deal_keeps_its_sets_and_one_pickled_without_them_gets_them():
    deal = Deal.random(7)
    again = pickle.loads(pickle.dumps(deal))
    assert again == deal and again._masks == deal._masks
    old = Deal.__new__(Deal)
    old.__setstate__((None, {"_hands": deal.hands}))     # as pickled before the sets
    assert old == deal and old._masks == deal._masks
    assert solver.solve_moves(old, "S", "N", "NS") == solver.solve_moves(deal, "S", "N", "NS")


def test_the_rows_hands_are_each_seats_hand():
    deals = [Deal.random(seed) for seed in range(5)]
    masks = hand_masks(np.array([deal_row(deal) for deal in deals]))
    assert masks.dtype == np.uint32 and masks.flags["C_CONTIGUOUS"]
    assert masks.tolist() == [[hand_mask(deal[seat]) for seat in Seat] for deal in deals]
    assert hand_masks(np.zeros((0, 32), dtype=np.int8)).shape == (0, 4)


def test_a_specs_trump_reads_back():
    deal = Deal.random(1)
    for suit in Suit:
        assert spec_trump(engine_spec(Game(deal, suit, "N", "NS", Rules()))) is suit
    ledig = Game(deal, None, "N", rules=Rules(contract="ledig"), bidder="S")
    assert engine_spec(ledig)["trump"] == _engine.WITHOUT_TRUMP
    assert spec_trump(engine_spec(ledig)) is None


def test_the_batch_shifts_no_bits():
    for path in (PACKAGE / "batch").glob("*.py"):
        shifts = [node.lineno for node in ast.walk(ast.parse(path.read_text()))
                  if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.RShift))]
        assert shifts == [], f"{path.name} packs bits at lines {shifts}"


@pytest.mark.parametrize("rules", [Rules(), Rules(roem="none"), Rules(roem="table", stuk="hand"),
                                   Rules(roem="table", stuk="trick"), Rules(roem="hand"),
                                   Rules(contract="ledig")], ids=repr)
def test_a_spec_that_does_not_read_the_deal_is_the_same_for_every_deal(rules):
    # The Solver and the batch keep one spec for all deals when spec_reads_deal says so.
    def spec(seed):
        if rules.contract == "ledig":
            return engine_spec(Game(Deal.random(seed), None, "N", rules=rules, bidder="E"))
        return engine_spec(Game(Deal.random(seed), "H", "N", "NS", rules))
    specs = [spec(seed) for seed in range(12)]
    if not spec_reads_deal(rules):
        assert all(s == specs[0] for s in specs)
    else:
        assert any(s != specs[0] for s in specs)

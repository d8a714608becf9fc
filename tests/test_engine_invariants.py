"""The engine's own invariants: what it refuses to configure, and what it checks at import."""
import pytest

from solver import Deal, Game, Rules
from solver.engine._compiled import engine as compiled
from solver.engine.search import engine_spec

# The largest amounts the rules allow, everywhere at once.
EXTREME = Rules(four_of_a_kind={rank: 1000 for rank in "789TJQKA"}, multiplier=8,
                double_suits=list("SHDC"), pit_bonus=1000, zero_bonus=1000)


def spec_of(rules, seed=3):
    return engine_spec(Game(Deal.random(seed), "H", "N", "NS", rules))


@pytest.mark.parametrize("roem", ["table", "hand"])
def test_the_largest_legal_rules_fit_the_tables_values(roem):
    engine = compiled.Engine(1)
    for seed in range(20):
        engine.configure(spec_of(Rules(**{**EXTREME.to_dict(), "roem": roem}), seed))


def test_a_round_whose_values_could_pass_the_16_bit_bounds_is_refused():
    spec = dict(spec_of(EXTREME), hand_roem=[8000, 8000])
    with pytest.raises(ValueError, match="does not fit the table's values"):
        compiled.Engine(1).configure(spec)


def test_every_counter_has_one_name():
    assert len(compiled.COUNTER_NAMES) == len(set(compiled.COUNTER_NAMES)) == 10

"""The engine's node signature is fixed by its source: an engine change that alters the search
shows here, and its commit quotes the new `python -m solver.engine.signature`."""
from solver.engine.signature import Signature, main, positions, signature

# `python -m solver.engine.signature --deals 6`. A change to these numbers is a change to the
# search: update them in the commit that makes it, with the 60-deal signature in its message.
SIX_DEALS = {
    "points": Signature(644367, "9ccb9ddd6695"),
    "make": Signature(105969, "d5091727f3bc"),
    "score": Signature(1054874, "8d779f32f468"),
    "moves": Signature(1075174, "21683563f38b"),
    "solve": Signature(650941, "fb6b2e246653"),
    "mid": Signature(13253, "4d771bbe42b7"),
}


def test_the_signature_of_six_deals_is_the_recorded_one():
    assert signature(6) == SIX_DEALS


def test_a_signature_does_not_depend_on_what_was_searched_before():
    assert signature(3, ["moves", "points"]) == signature(3, ["points", "moves"])


def test_the_positions_are_the_same_on_every_call():
    assert list(positions(4)) == list(positions(4))


def test_the_command_prints_each_objective(capsys):
    assert main(["--deals", "1"]) == 0
    printed = capsys.readouterr().out
    assert all(objective in printed for objective in SIX_DEALS)

"""One error class for each kind of wrong argument, whichever entry point it is given to: a
non-Deal as the deal is a DealError, rules that are not Rules, a preset or options a RulesError, a bad seat, suit or
team a NotationError, and a bad objective, whole number, solver or game a SolverError."""
import pytest

from solver import (Deal, DealError, Game, NotationError, Rules, RulesError, Solver,
                    SolverError, analyse_bidding, analyse_play, analyse_view, sample_worlds,
                    solve, solve_moves, solve_table)
from solver.batch import PositionBatch, game_rows, move_values, position_values

DEAL = Deal.random(5)
RULES = Rules()


def _late_game() -> Game:
    game = Game(DEAL, "H", "N", "NS", RULES)
    while len(game.played) < 28:
        game.play(game.legal_cards()[0])
    return game


GAME = _late_game()
ROUND = dict(deal=DEAL, trump="H", leader="N", playing="NS", rules=RULES)

# entry point -> (the function, valid keyword arguments; each case spoils one of them)
ENTRIES = {
    "solve": (solve, dict(ROUND, objective="points", table_mb=1)),
    "solve_moves": (solve_moves, dict(ROUND, objective="points", table_mb=1)),
    "Solver": (Solver, dict(rules=RULES, table_mb=1)),
    "Solver.solve": (lambda **kw: Solver(table_mb=1).solve(**kw), dict(ROUND, objective="points")),
    "Solver.solve_moves": (lambda **kw: Solver(table_mb=1).solve_moves(**kw),
                           dict(ROUND, objective="points")),
    "Solver.game": (lambda **kw: Solver(table_mb=1).game(**kw), dict(ROUND)),
    "Solver.value": (lambda **kw: Solver(table_mb=1).value(**kw), dict(game=GAME, objective="points")),
    "Solver.move_values": (lambda **kw: Solver(table_mb=1).move_values(**kw),
                           dict(game=GAME, objective="points")),
    "Solver.best_card": (lambda **kw: Solver(table_mb=1).best_card(**kw),
                         dict(game=GAME, objective="points")),
    "Solver.line": (lambda **kw: Solver(table_mb=1).line(value=0, **kw),
                    dict(game=GAME, objective="points")),
    "Solver.make_value": (lambda **kw: Solver(table_mb=1).make_value(**kw), dict(game=GAME)),
    "Solver.value_and_make": (lambda **kw: Solver(table_mb=1).value_and_make(**kw),
                              dict(game=GAME, objective="points")),
    "Solver.move_values_and_makes": (lambda **kw: Solver(table_mb=1).move_values_and_makes(**kw),
                                     dict(game=GAME, objective="points")),
    "Game": (Game, dict(ROUND)),
    "solve_table": (solve_table, dict(deal=DEAL, rules=RULES, solver=None, workers=1)),
    "analyse_play": (analyse_play, dict(record=DEAL, trump="H", leader="N", playing="NS",
                                        rules=RULES, played=(), solver=None, worlds=0, seed=0,
                                        workers=1)),
    "analyse_bidding": (analyse_bidding, dict(deal=DEAL, dealer="N", rules=RULES,
                                              procedure="free", turned="H", solver=None,
                                              worlds=0, seed=0, workers=1)),
    "analyse_view": (analyse_view, dict(game=GAME, seat=None, worlds=2, seed=0,
                                        objective="points", workers=1, solver=None)),
    "sample_worlds": (sample_worlds, dict(game=GAME, seat="N", n=2, seed=0)),
}

# argument -> the kind of thing it is
KINDS = {"deal": "deal", "record": "deal", "rules": "rules", "trump": "suit", "turned": "suit",
         "leader": "seat", "dealer": "seat", "seat": "seat", "playing": "team",
         "objective": "objective", "table_mb": "whole number", "workers": "whole number",
         "worlds": "whole number", "n": "whole number", "seed": "whole number",
         "solver": "solver", "game": "game"}
# kind -> (a wrong value of it, the error it always raises)
WRONG = {"deal": ("N:AKQJ.T987.AKQJ.T987", DealError), "rules": ("rotterdm", RulesError),
         "suit": ("X", NotationError), "seat": ("X", NotationError), "team": ("XY", NotationError),
         "objective": ("win", SolverError), "whole number": (1.5, SolverError),
         "solver": ("a solver", SolverError), "game": (DEAL, SolverError)}

CASES = [(entry, argument) for entry, (_, valid) in ENTRIES.items() for argument in valid
         if argument in KINDS]


@pytest.mark.parametrize("entry, argument", CASES, ids=[f"{e}-{a}" for e, a in CASES])
def test_each_kind_of_wrong_argument_raises_one_error_class_at_every_entry_point(entry, argument):
    function, valid = ENTRIES[entry]
    wrong, error = WRONG[KINDS[argument]]
    with pytest.raises(SolverError) as raised:
        function(**dict(valid, **{argument: wrong}))
    assert type(raised.value) is error, f"{entry}({argument}=...): {raised.value!r}"


# A trump round's trump, leader and playing team left out (None) is said to be needed, at
# every entry point that takes them, the batch's included.
NEEDED = {"trump": "the trump suit", "leader": "the seat that leads trick 1",
          "playing": "the playing team"}
BATCH = dict(game_rows([GAME]), workers=1, table_mb=1)
BATCH_ENTRIES = {"move_values": move_values, "position_values": position_values,
                 "PositionBatch": PositionBatch}
MISSING = [(entry, argument) for entry, (_, valid) in ENTRIES.items() for argument in valid
           if argument in NEEDED] + [(entry, argument) for entry in BATCH_ENTRIES
                                     for argument in NEEDED]


@pytest.mark.parametrize("entry, argument", MISSING, ids=[f"{e}-{a}" for e, a in MISSING])
def test_a_value_a_round_needs_left_out_is_said_to_be_needed(entry, argument):
    if entry in BATCH_ENTRIES:
        function, valid, needed = BATCH_ENTRIES[entry], BATCH, f"{argument} is needed"
    else:
        (function, valid), needed = ENTRIES[entry], f"a round needs {NEEDED[argument]}"
    with pytest.raises(NotationError) as raised:
        function(**dict(valid, **{argument: None}))
    assert needed in str(raised.value) and "None" not in str(raised.value)

"""solver.batch against the per-call API: positions per second on mid-round positions (random
legal play to trick 3, 4 or 5), default rules, points.

    python benchmarks/bench_batch.py [--positions 10000] [--workers 2]

The per-call API is Solver.solve_moves on one thread, one warm Solver, position by position;
the batch is solver.batch.move_values on all the positions at once. Their values are
compared (any difference ends the run with status 1).
"""
import argparse
import random
import sys
import time

import numpy as np

from solver import Deal, Game, Rules, Solver
from solver.batch import NOT_LEGAL, move_values
from solver.model.scoring import value_for_team


def mid_round(count, seed=11):
    """`count` positions: the batch's arrays and the public call's arguments."""
    rng = random.Random(seed)
    deal = np.zeros((count, 32), dtype=np.int8)
    trump, leader, playing = (np.zeros(count, dtype=np.int8) for _ in range(3))
    played = np.full((count, 32), -1, dtype=np.int8)
    calls = []
    for row in range(count):
        game = Game(Deal.random(50_000 + row), rng.randrange(4), rng.randrange(4),
                    rng.randrange(2), Rules())
        for _ in range(rng.randint(8, 19)):
            game.play(rng.choice(game.legal_cards()))
        for seat, hand in enumerate(game.deal.hands):
            deal[row, [c.index for c in hand]] = seat
        trump[row], leader[row], playing[row] = game.trump, game.leader, game.playing
        played[row, :len(game.played)] = [c.index for c in game.played]
        calls.append(game)
    return (deal, trump, leader, playing, played), calls


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    arrays, games = mid_round(args.positions)
    start, cpu = time.perf_counter(), time.process_time()
    values = move_values(*arrays, workers=args.workers)
    batch = (time.perf_counter() - start, time.process_time() - cpu)
    solver = Solver(Rules())
    start, cpu = time.perf_counter(), time.process_time()
    calls = [solver.solve_moves(g.deal, g.trump, g.leader, g.playing, played=g.played)
             for g in games]
    single = (time.perf_counter() - start, time.process_time() - cpu)
    # The per-call path as it was: a Game built and replayed in Python, then move_values.
    start, cpu = time.perf_counter(), time.process_time()
    for g in games:
        solver.move_values(solver.game(g.deal, g.trump, g.leader, g.playing, played=g.played))
    game_path = (time.perf_counter() - start, time.process_time() - cpu)
    differences = 0
    for row, (game, call) in enumerate(zip(games, calls)):
        expected = np.full(32, NOT_LEGAL, dtype=np.int16)
        for card, value in call.items():
            expected[card.index] = value_for_team(value, game.to_move.team, game.playing)
        differences += not np.array_equal(values[row], expected)
    print(f"{args.positions} mid-round positions (trick 3-5), points, default rules; "
          f"positions/s by wall time (by CPU seconds of the process)")
    for label, (wall, cpu) in (("solve_moves (Game replay, move_values), 1 thread", game_path),
                               ("solve_moves, 1 thread", single),
                               (f"solver.batch, {args.workers} threads", batch)):
        print(f"{label:<50} {args.positions / wall:9,.0f} ({args.positions / cpu:,.0f})")
    print(f"batch / solve_moves: {single[0] / batch[0]:.2f}x by wall time, "
          f"{single[1] / batch[1]:.2f}x by CPU")
    print(f"positions with different values: {differences}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

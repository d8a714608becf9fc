"""Single-dummy speed: analyse_view with 64 worlds at trick 1 and trick 5, analyse_play with 32
worlds over a full game, and the sampler's own speed at a late, strongly constrained position.

    python benchmarks/bench_worlds.py [--positions 5]
"""
import argparse
import statistics
import time
from pathlib import Path

from bench_solve import positions
from solver import Game, GameRecord, Solver, analyse_play, analyse_view, sample_worlds

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game.json"


def timed(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def optimal_game(deal, trump, leader, playing, cards):
    solver, game = Solver(), Game(deal, trump, leader, playing)
    for _ in range(cards):
        game.play(solver.best_card(game))
    return game


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    args = parser.parse_args(argv)
    deals = list(positions(args.positions))
    for trick in (1, 5):
        games = [optimal_game(*d, cards=(trick - 1) * 4) for d in deals]
        times = [timed(lambda g=g: analyse_view(g, worlds=64, seed=1, workers=args.workers))
                 for g in games]
        print(f"analyse_view, 64 worlds, trick {trick}: median {statistics.median(times):.2f} s, "
              f"max {max(times):.2f} s over {len(games)} positions", flush=True)
    record = GameRecord.load(EXAMPLE)
    seconds = timed(lambda: analyse_play(record, worlds=32, seed=1, workers=args.workers))
    print(f"analyse_play --worlds 32, examples/game.json (32 cards): {seconds:.1f} s", flush=True)
    late = Game(record.deal, record.trump, record.leader, record.playing, record.rules)
    late.replay(record.played[:22])        # trick 6: several voids shown
    count = 2000
    seconds = timed(lambda: sample_worlds(late, late.to_move, count, seed=1))
    print(f"sample_worlds at card 23 (voids and caps known): {count / seconds:,.0f} worlds/s")


if __name__ == "__main__":
    main()

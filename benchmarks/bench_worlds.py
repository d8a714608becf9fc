"""Single-dummy speed: analyse_view with 64 worlds at trick 1 and trick 5, a bot's move (the best
card only, best_view_card) with 32 worlds at trick 1, analyse_play with 32 worlds over a full
game, and the sampler's own speed at a late, strongly constrained position.

    python benchmarks/bench_worlds.py [--positions 5] [--only view,bot,play,sample]
    python benchmarks/bench_worlds.py --positions 20 --bot-nodes

`--bot-nodes` prints, for the bot's move at trick 1, each decision's card and nodes (one
worker and a fresh Solver per decision, so that the counts are exact and load-free) and their
total: the figure to compare two versions of the decision procedure by. Beside them, two
yardsticks on the same worlds: every legal card's exact value in every world (what
analyse_view searches), and each world's value alone (a fresh Solver a world: one search of
the position, no card compared), which is about what a procedure that needed nothing but
each world's best card would cost.

Each row gives the median wall time over the positions and the process's CPU seconds per
position (on a shared machine the wall time also holds other people's work).
"""
import argparse
import statistics
import time
from pathlib import Path

from bench_solve import positions
from solver import Game, GameRecord, Solver, analyse_play, analyse_view, sample_worlds
from solver.analysis.view import _world_batch, best_view_card

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game.json"


def timed(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def cpu_timed(func):
    """(wall seconds, CPU seconds of this process) of func()."""
    start, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - start, time.process_time() - cpu


def report(label, runs):
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    print(f"{label}: median {statistics.median(walls) * 1000:.0f} ms, max "
          f"{max(walls) * 1000:.0f} ms, CPU {statistics.median(cpus) * 1000:.0f} ms "
          f"over {len(runs)} positions", flush=True)


def optimal_game(deal, trump, leader, playing, cards):
    solver, game = Solver(), Game(deal, trump, leader, playing)
    for _ in range(cards):
        game.play(solver.best_card(game))
    return game


def bot_nodes(deals):
    """The bot's nodes at trick 1 per decision, with the two yardsticks (module docstring)."""
    totals = [0, 0, 0]
    print("card  bot nodes  every card exactly  each world's value alone")
    for deal in deals:
        game = Game(*deal)
        solver = Solver()
        card = best_view_card(game, worlds=32, seed=1, workers=1, solver=solver)
        bot = solver.engine.nodes
        worlds = sample_worlds(game, game.to_move, 32, 1)    # the worlds best_view_card saw
        solver = Solver()
        _world_batch(game, worlds, 1, solver).values("points")
        every = solver.engine.nodes
        alone = 0
        for world in worlds:
            solver = Solver()
            solver.value(Game(world, game.trump, game.leader, game.playing), "points")
            alone += solver.engine.nodes
        for i, nodes in enumerate((bot, every, alone)):
            totals[i] += nodes
        print(f"{card}  {bot:9d}  {every:18d}  {alone:24d}", flush=True)
    bot, every, alone = totals
    print(f"bot's move (best_view_card), 32 worlds, trick 1: {bot} nodes over {len(deals)} "
          f"positions; {bot / every:.2f}x every card's exact values, {bot / alone:.2f}x each "
          f"world's value alone")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    parser.add_argument("--only", default="view,bot,play,sample",
                        help="comma-separated: view, bot, play, sample")
    parser.add_argument("--bot-nodes", action="store_true",
                        help="the bot's move at trick 1: each decision's card and nodes")
    args = parser.parse_args(argv)
    only = args.only.split(",")
    deals = list(positions(args.positions))
    if args.bot_nodes:
        bot_nodes(deals)
        return
    for trick in (1, 5):
        games = [optimal_game(*d, cards=(trick - 1) * 4) for d in deals]
        if "view" in only:
            report(f"analyse_view, 64 worlds, trick {trick}", [
                cpu_timed(lambda g=g: analyse_view(g, worlds=64, seed=1, workers=args.workers))
                for g in games])
        if "bot" in only and trick == 1:
            report(f"bot's move (best_view_card), 32 worlds, trick {trick}", [
                cpu_timed(lambda g=g: best_view_card(g, worlds=32, seed=1, workers=args.workers))
                for g in games])
    if "play" not in only and "sample" not in only:
        return
    record = GameRecord.load(EXAMPLE)
    if "play" in only:
        seconds = timed(lambda: analyse_play(record, worlds=32, seed=1, workers=args.workers))
        print(f"analyse_play --worlds 32, examples/game.json (32 cards): {seconds:.1f} s",
              flush=True)
    if "sample" in only:
        late = Game(record.deal, record.trump, record.leader, record.playing, record.rules)
        late.replay(record.played[:22])        # trick 6: several voids shown
        count = 2000
        seconds = timed(lambda: sample_worlds(late, late.to_move, count, seed=1))
        print(f"sample_worlds at card 23 (voids and caps known): {count / seconds:,.0f} "
              f"worlds/s")


if __name__ == "__main__":
    main()

"""Beliefs against the truth: how much probability the worlds of a seat give each hidden card's
true holder, uniform against the play belief, by trick; and the fit of the play model's
temperature and uniform share.

    python benchmarks/bench_belief.py [--positions 2000] [--deals 50] [--fit-deals 50]
                                      [--worlds 64] [--bots pimc:16 rule] [--network PATH]

The rounds are played by the arena's machinery (`solver.arena.table.play_table`, the deals of
`RoundStream`): every deal twice, the two bots (`--bots`) swapping sides, as a duplicate match
seats them. The fit rounds (seed 2, `--fit-deals`) give the plays the temperature T and the
share epsilon are fitted on, by the least log loss of the cards actually played over a grid
(every play with a choice, observed by its player with its real hand). The measured rounds
(seed 1, `--deals`) give the positions: `--positions` of every position of those rounds,
drawn with seed 3, each observed by the seat to move. At each, `--worlds` worlds are drawn
uniformly (`weighted_worlds`) and weighed uniformly and under the play belief with the fitted
T and epsilon (the same worlds, so the comparison is paired). For every card the seat cannot
see, the probability the worlds give its true holder is the weight of the worlds where that
seat holds it; the log loss is -ln of it, mixed with 1/worlds of an even share between the
seats that could hold the card (so that a holder no drawn world names costs a finite loss).
"""
import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from solver import Game, Rules, Solver, encode
from solver.analysis.beliefs import EPSILON, TEMPERATURE, PlayBelief, weighted_worlds
from solver.arena.names import make_bot
from solver.arena.table import play_table
from solver.model.rounds import RoundStream
from solver.model.streams import derive
from solver.model.worlds import excluded_cards, sample_worlds, seen
from solver.network import default_network, load_network

TEMPERATURES = [0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1, 2, 5, 20]
EPSILONS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5]


def played_rounds(bots, deals, seed, cache=None):
    """Every deal of seed `seed` played twice by the arena's machinery, `bots[0]` North-South
    then East-West: the rounds as Games, played out. With `cache` (a folder), the cards played
    are kept there and read back by a later run with the same bots, deals and seed."""
    if cache is not None:
        path = Path(cache) / f"rounds-{bots[0]}-{bots[1]}-{deals}-{seed}.json".replace(":", "_")
        if path.exists():
            stream = RoundStream(seed, Rules())
            games = []
            for number, tables in enumerate(json.loads(path.read_text())):
                for cards in tables:
                    game = stream.round(number).game(Rules())
                    game.replay(cards)
                    games.append(game)
            return games
        games = played_rounds(bots, deals, seed)
        path.write_text(json.dumps([[" ".join(map(str, g.played)) for g in games[i:i + 2]]
                                    for i in range(0, len(games), 2)]))
        return games
    rules = Rules()
    solver = Solver(rules)
    stream = RoundStream(seed, rules)
    games = []
    for number in range(deals):
        r = stream.round(number)
        for table in range(2):
            a, b = (bots[0], bots[1]) if table == 0 else (bots[1], bots[0])
            seated = [make_bot(a if seat % 2 == 0 else b) for seat in range(4)]
            for seat, bot in enumerate(seated):
                bot.reset(derive(seed, number, table, seat))
            result = play_table(r.deal, r.trump, r.leader, r.playing, seated, solver)
            game = r.game(rules)
            game.replay([move.card for move in result.moves])
            games.append(game)
    return games


def positions_of(games):
    """(game, number of cards played) for every position of `games` with a card to play."""
    return [(game, k) for game in games for k in range(32)]


def at(game, cards):
    """`game` with only its first `cards` cards played."""
    position = Game(game.deal, game.trump, game.leader, game.playing, game.rules)
    position.replay(game.played[:cards])
    return position


def plays_to_fit(games):
    """(observations, legal masks, the cards played) of every play with a choice."""
    xs, masks, chosen = [], [], []
    for game in games:
        replay = at(game, 0)
        for card in game.played:
            legal = replay.legal_cards()
            if len(legal) > 1:
                xs.append(encode.observation(replay, replay.to_move))
                mask = np.zeros(32, dtype=bool)
                mask[[c.index for c in legal]] = True
                masks.append(mask)
                chosen.append(card.index)
            replay.play(card)
    return np.stack(xs), np.stack(masks), np.array(chosen)


def fit(network, games):
    """The (T, epsilon) of least mean log loss over the plays of `games`, with that loss, the
    uniform model's loss and the table of the grid."""
    x, masks, chosen = plays_to_fit(games)
    scores = network.scores(x)
    rows = np.arange(len(chosen))
    grid = {}
    for t in TEMPERATURES:
        for eps in EPSILONS:
            logp = PlayBelief(network, t, eps).card_log_probabilities(scores, masks)
            grid[(t, eps)] = -float(logp[rows, chosen].mean())
    best = min(grid, key=grid.get)
    uniform = float(np.log(masks.sum(axis=1)).mean())
    return best, grid[best], uniform, grid, len(chosen)


def holder_probabilities(game, seat, worlds, weights):
    """For every card `seat` cannot see: (trick, probability on its true holder, the number
    of seats that could hold it)."""
    known = seen(game, seat)
    excluded = excluded_cards(game, seat)
    others = [s for s in excluded]
    out = []
    for holder in others:
        for card in game.hands[holder]:
            p = sum(w for world, w in zip(worlds, weights) if card in world[holder])
            possible = sum(1 for s in others if card not in excluded[s])
            out.append((p, possible))
    assert all(s not in known for s in others)
    return out


def measure(belief, games, count, worlds, seed):
    """Per trick: [probability on the true holder, log loss] for uniform and the belief, over
    `count` positions drawn from `games`."""
    rng = random.Random(seed)
    chosen = rng.sample(positions_of(games), count)
    by_trick = {t: {"uniform": [[], []], "play": [[], []]} for t in range(1, 9)}
    seconds = []
    for number, (game, cards) in enumerate(chosen):
        position = at(game, cards)
        seat = position.to_move
        sampled, _ = weighted_worlds(position, seat, worlds, seed=number)
        start = time.perf_counter()
        _, play = weighted_worlds(position, seat, worlds, seed=number, belief=belief)
        seconds.append((position.trick_number, time.perf_counter() - start))
        uniform = np.full(worlds, 1 / worlds)
        for name, weights in (("uniform", uniform), ("play", play)):
            for p, possible in holder_probabilities(position, seat, sampled, weights):
                smoothed = (1 - 1 / worlds) * p + (1 / worlds) / possible
                by_trick[position.trick_number][name][0].append(p)
                by_trick[position.trick_number][name][1].append(-math.log(smoothed))
    return by_trick, seconds


def weigh_time(belief, games, worlds=32, repeats=3):
    """The median time to weigh `worlds` worlds mid-round (tricks 4 to 6), the steps of the
    round already made (as a bot's later moves find them), and the first time."""
    warm, cold = [], []
    for game in games[:40]:
        for cards in (13, 18, 22):
            position = at(game, cards)
            ws = sample_worlds(position, position.to_move, worlds, seed=cards)
            from solver.analysis import beliefs
            beliefs._STEP_CACHE.clear()
            start = time.perf_counter()
            belief.log_weights(position, position.to_move, ws)
            cold.append(time.perf_counter() - start)
            for _ in range(repeats):
                start = time.perf_counter()
                belief.log_weights(position, position.to_move, ws)
                warm.append(time.perf_counter() - start)
    return statistics.median(warm) * 1e3, statistics.median(cold) * 1e3


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--fit-deals", type=int, default=50)
    parser.add_argument("--worlds", type=int, default=64)
    parser.add_argument("--bots", nargs=2, default=["pimc:16", "rule"])
    parser.add_argument("--network", default=None, help="a network file (default: shipped)")
    parser.add_argument("--fit-only", action="store_true")
    parser.add_argument("--cache", default=None,
                        help="a folder keeping the rounds played, for a rerun (default: none)")
    args = parser.parse_args(argv)
    network = default_network() if args.network is None else load_network(args.network)
    print(f"network: {Path(args.network).name if args.network else 'shipped'} "
          f"{network!r}; bots {args.bots[0]} and {args.bots[1]}", flush=True)
    start = time.perf_counter()
    fit_games = played_rounds(args.bots, args.fit_deals, seed=2, cache=args.cache)
    print(f"fit rounds: {len(fit_games)} in {time.perf_counter() - start:.0f} s", flush=True)
    (t, eps), loss, uniform, grid, plays = fit(network, fit_games)
    print(f"fit on {plays} plays with a choice: T = {t:g}, epsilon = {eps:g}: log loss "
          f"{loss:.4f} a play (uniform over the legal cards: {uniform:.4f}); the defaults "
          f"are T = {TEMPERATURE:g}, epsilon = {EPSILON:g}")
    for eps_row in EPSILONS:
        print(f"  epsilon {eps_row:<6g}" + " ".join(f"{grid[(tt, eps_row)]:.3f}"
                                               for tt in TEMPERATURES))
    print("  (columns: T = " + " ".join(f"{tt:g}" for tt in TEMPERATURES) + ")", flush=True)
    if args.fit_only:
        return 0
    belief = PlayBelief(network, t, eps)
    warm, cold = weigh_time(belief, fit_games)
    print(f"weighing 32 worlds mid-round (tricks 4 to 6): median {warm:.1f} ms, "
          f"{cold:.1f} ms the first time in a round", flush=True)
    start = time.perf_counter()
    games = played_rounds(args.bots, args.deals, seed=1, cache=args.cache)
    print(f"measured rounds: {len(games)} in {time.perf_counter() - start:.0f} s", flush=True)
    by_trick, seconds = measure(belief, games, args.positions, args.worlds, seed=3)
    print("| trick | positions | hidden cards | P(true holder) uniform | P(true holder) play "
          "| log loss uniform | log loss play |")
    print("|---|---|---|---|---|---|---|")
    totals = {"uniform": [[], []], "play": [[], []]}
    for trick in range(1, 9):
        row = by_trick[trick]
        n = sum(1 for tr, _ in seconds if tr == trick)
        if not row["uniform"][0]:
            continue
        for name in totals:
            for i in range(2):
                totals[name][i] += row[name][i] if trick >= 5 else []
        print(f"| {trick} | {n} | {len(row['uniform'][0])} | "
              f"{np.mean(row['uniform'][0]):.3f} | {np.mean(row['play'][0]):.3f} | "
              f"{np.mean(row['uniform'][1]):.3f} | {np.mean(row['play'][1]):.3f} |")
    print(f"| 5 to 8 | | {len(totals['uniform'][0])} | {np.mean(totals['uniform'][0]):.3f} | "
          f"{np.mean(totals['play'][0]):.3f} | {np.mean(totals['uniform'][1]):.3f} | "
          f"{np.mean(totals['play'][1]):.3f} |")
    print(f"weighing {args.worlds} worlds: median {statistics.median(s for _, s in seconds) * 1e3:.1f}"
          f" ms a position")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Side by side with colver (a Rust Belote engine): the value of every legal card, by position type.

    python -m pip install -e ".[bench]"
    python benchmarks/vs_colver.py [--positions 60] [--types full,mid,12,22,end,pimc]

Under Rules(trump_duty="amsterdam", undertrump="free", roem="none", pit="any", pit_bonus=90)
Klaverjas play is Belote play: the same legal cards, card points and last trick, and 90 for
all tricks (capot). Both engines get the same hands, trump, leader, contract team and cards
played; the positions alternate between them in one process. Ours is the public call
`Solver.solve_moves(deal, trump, leader, playing, played=...)` (building and checking the
position included); colver's is `Env.solve_scores()` on an Env already stepped to the
position (its stepping not timed). colver reports North-South card points 0..252 (252 for
all tricks); ours is the playing team's point difference. Every card's value is compared,
and any difference ends the run with status 1. The column `top/warm` is the median ratio of
the package's top-level `solve_moves(...)` (which searches on the thread's warm Solver) to the
warm `Solver.solve_moves` on the same position: what a loop over the top-level function costs.

The position types, each over the same seeded deals as bench_solve.py:
  full  trick 1, nothing played (all root cards of a full deal)
  mid   random legal play to trick 3, 4 or 5 (8 to 19 cards played)
  12    12 cards played at random;  22: 22 cards played at random
  end   2 or 3 tricks left (20 to 27 cards played)
  pimc  one world sampled (sample_worlds) for the player to move after 0 to 7 random cards:
        the searches a perfect-information Monte Carlo decision makes, one per world
colver reports no node count: its column is empty.
"""
import argparse
import random
import statistics
import sys
import time

from bench_solve import percentile, positions
from solver import Card, Game, Rank, Rules, Seat, Solver, Suit, Team, sample_worlds, solve_moves

RULES = Rules(trump_duty="amsterdam", undertrump="free", roem="none", pit="any", pit_bonus=90)
# colver's card index: suit * 8 + rank, suits S H D C, ranks 7 8 9 J Q K T A.
COLVER_SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
COLVER_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN,
                Rank.ACE)
TO_COLVER = {Card(COLVER_SUITS[i // 8], COLVER_RANKS[i % 8]): i for i in range(32)}
FROM_COLVER = {i: card for card, i in TO_COLVER.items()}
# Cards played before the position, drawn per position: (least, most).
TYPES = {"full": (0, 0), "mid": (8, 19), "12": (12, 12), "22": (22, 22), "end": (20, 27),
         "pimc": (0, 7)}


def colver_env(colver, deal, trump, leader, playing, played=()):
    """An Env with `leader` to lead trick 1 (colver's first player is left of the dealer),
    stepped through `played`."""
    hands = [[TO_COLVER[c] for c in deal[seat]] for seat in Seat]
    env = colver.Env.deal_with_hands((leader - 1) % 4, hands)
    env.set_contract(COLVER_SUITS.index(trump), 80, int(playing), 0)
    env.set_phase_playing()
    assert env.current_player() == leader
    for card in played:
        action = TO_COLVER[card]
        assert action in env.legal_actions(), f"colver refuses {card} after {played}"
        env.step(action)
    return env


def ns_card_points(value, playing):
    """Our `points` value (playing team's difference) as colver's NS card points 0..252."""
    ns = value if playing == Team.NS else -value
    if abs(ns) == 252:          # all tricks: 162 + 90, the other side 0
        return 252 if ns > 0 else 0
    return (ns + 162) // 2


def position_of(kind, index, deal, trump, leader, playing):
    """(the deal to solve, the cards played) of position `index` of type `kind`: random legal
    play from the seeded deal; for pimc, a world the player to move cannot tell apart."""
    rng = random.Random(f"{kind}-{index}")
    least, most = TYPES[kind]
    game = Game(deal, trump, leader, playing, RULES)
    for _ in range(rng.randint(least, most)):
        game.play(rng.choice(game.legal_cards()))
    if kind == "pimc":
        deal = sample_worlds(game, game.to_move, 1, seed=index)[0]
    return deal, list(game.played)


def summary(values, scale=1.0):
    return (statistics.median(values) * scale, percentile(values, .95) * scale,
            percentile(values, .99) * scale)


def run_type(colver, solver, kind, count):
    """Per position: (our seconds, colver's seconds, our nodes, the top-level call's seconds);
    and the positions whose values differ."""
    ours, theirs, nodes, top, differences = [], [], [], [], 0
    for i, (deal, trump, leader, playing) in enumerate(positions(count)):
        deal, played = position_of(kind, i, deal, trump, leader, playing)
        env = colver_env(colver, deal, trump, leader, playing, played)
        start = time.perf_counter()
        result = env.solve_scores()
        theirs.append(time.perf_counter() - start)
        # The two calls of ours take turns going first: the second finds the caches warm.
        if i % 2:
            start = time.perf_counter()
            top_values = solve_moves(deal, trump, leader, playing, RULES, played)
            top.append(time.perf_counter() - start)
        before = solver.engine.nodes
        start = time.perf_counter()
        values = solver.solve_moves(deal, trump, leader, playing, played=played)
        ours.append(time.perf_counter() - start)
        nodes.append(solver.engine.nodes - before)
        if not i % 2:
            start = time.perf_counter()
            top_values = solve_moves(deal, trump, leader, playing, RULES, played)
            top.append(time.perf_counter() - start)
        if top_values != values:
            differences += 1
            print(f"{kind} position {i}: the top-level solve_moves differs from Solver's")
        expected = {FROM_COLVER[c]: points for c, points in result["scores"]}
        got = {card: ns_card_points(v, playing) for card, v in values.items()}
        if got != expected:
            differences += 1
            print(f"{kind} position {i}: values differ: ours "
                  f"{sorted((str(c), v) for c, v in got.items())} colver "
                  f"{sorted((str(c), v) for c, v in expected.items())}")
    return ours, theirs, nodes, top, differences


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", "--deals", type=int, default=60,
                        help="positions of each type")
    parser.add_argument("--types", default=",".join(TYPES),
                        help=f"comma-separated, of {', '.join(TYPES)}")
    parser.add_argument("--table-mb", type=int, default=None,
                        help="our table size (default: the Solver's default)")
    args = parser.parse_args(argv)
    kinds = args.types.split(",")
    unknown = [k for k in kinds if k not in TYPES]
    if unknown:
        parser.error(f"unknown position types {unknown}: choose from {', '.join(TYPES)}")
    try:
        import colver
    except ImportError:
        sys.exit("vs_colver needs colver: python -m pip install -e '.[bench]'")
    solver = Solver(RULES) if args.table_mb is None else Solver(RULES, table_mb=args.table_mb)
    print(f"{args.positions} positions of each type, every legal card, one thread, one warm "
          f"Solver; times in ms (median / p95 / p99), ratio = median of ours/colver per position")
    print(f"{'type':<5} {'ours ms':>20} {'colver ms':>20} {'ours nodes':>24} {'ratio':>6}"
          f" {'ratio of medians':>17} {'top/warm':>9} {'differ':>7}")
    failed = 0
    for kind in kinds:
        ours, theirs, nodes, top, differences = run_type(colver, solver, kind, args.positions)
        failed += differences
        ratios = [a / b for a, b in zip(ours, theirs)]
        o, t, n = summary(ours, 1000), summary(theirs, 1000), summary(nodes)
        print(f"{kind:<5} {o[0]:6.3f} {o[1]:6.2f} {o[2]:6.2f} {t[0]:6.3f} {t[1]:6.2f} {t[2]:6.2f}"
              f" {n[0]:8.0f}{n[1]:8.0f}{n[2]:8.0f} {statistics.median(ratios):6.2f}"
              f" {o[0] / t[0]:17.2f} {statistics.median(a / b for a, b in zip(top, ours)):9.2f}"
              f" {differences:7d}", flush=True)
    print(f"positions with different values: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

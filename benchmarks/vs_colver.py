"""Side by side with colver (a Rust Belote engine): the value of every legal first card.

    python -m pip install -e ".[bench]"
    python benchmarks/vs_colver.py [--deals 200]

Under Rules(trump_duty="amsterdam", undertrump="free", roem="none", pit="any", pit_bonus=90)
Klaverjas play is Belote play: the same legal cards, card points and last trick, and 90 for
all tricks (capot). Both engines get the same hands, trump, leader and contract team; the
deals alternate between them in one process. colver reports North-South card points 0..252
(252 for all tricks); ours is the playing team's point difference. Every card's value is
compared, and any difference ends the run with status 1.
"""
import argparse
import statistics
import sys
import time

from bench_solve import percentile, positions
from solver import Card, Rank, Rules, Seat, Solver, Suit, Team

RULES = Rules(trump_duty="amsterdam", undertrump="free", roem="none", pit="any", pit_bonus=90)
# colver's card index: suit * 8 + rank, suits S H D C, ranks 7 8 9 J Q K T A.
COLVER_SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
COLVER_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN,
                Rank.ACE)
TO_COLVER = {Card(COLVER_SUITS[i // 8], COLVER_RANKS[i % 8]): i for i in range(32)}
FROM_COLVER = {i: card for card, i in TO_COLVER.items()}


def colver_env(colver, deal, trump, leader, playing):
    """An Env at trick 1 with `leader` to play (colver's first player is left of the dealer)."""
    hands = [[TO_COLVER[c] for c in deal[seat]] for seat in Seat]
    env = colver.Env.deal_with_hands((leader - 1) % 4, hands)
    env.set_contract(COLVER_SUITS.index(trump), 80, int(playing), 0)
    env.set_phase_playing()
    assert env.current_player() == leader
    return env


def ns_card_points(value, playing):
    """Our `points` value (playing team's difference) as colver's NS card points 0..252."""
    ns = value if playing == Team.NS else -value
    if abs(ns) == 252:          # all tricks: 162 + 90, the other side 0
        return 252 if ns > 0 else 0
    return (ns + 162) // 2


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--table-mb", type=int, default=None,
                        help="our table size (default: the Solver's default)")
    args = parser.parse_args(argv)
    try:
        import colver
    except ImportError:
        sys.exit("vs_colver needs colver: python -m pip install -e '.[bench]'")
    solver = Solver(RULES) if args.table_mb is None else Solver(RULES, table_mb=args.table_mb)
    ours, theirs, ratios, differences = [], [], [], 0
    for i, (deal, trump, leader, playing) in enumerate(positions(args.deals), start=1):
        env = colver_env(colver, deal, trump, leader, playing)
        start = time.perf_counter()
        result = env.solve_scores()
        theirs.append(time.perf_counter() - start)
        start = time.perf_counter()
        values = solver.solve_moves(deal, trump, leader, playing)
        ours.append(time.perf_counter() - start)
        ratios.append(ours[-1] / theirs[-1])
        expected = {FROM_COLVER[c]: points for c, points in result["scores"]}
        got = {card: ns_card_points(v, playing) for card, v in values.items()}
        if got != expected:
            differences += 1
            print(f"deal {i - 1}: values differ: ours {sorted((str(c), v) for c, v in got.items())}"
                  f" colver {sorted((str(c), v) for c, v in expected.items())}")
        if i % 20 == 0 or i == args.deals:
            print(f"  {i}/{args.deals} deals, median ratio so far {statistics.median(ratios):.2f}",
                  file=sys.stderr)
    print(f"{args.deals} deals, every legal first card, one thread")
    print(f"{'engine':<8} {'median ms':>10} {'p90 ms':>9} {'max ms':>9}")
    for name, times in (("ours", ours), ("colver", theirs)):
        ms = [t * 1000 for t in times]
        print(f"{name:<8} {statistics.median(ms):10.2f} {percentile(ms, .9):9.2f} {max(ms):9.2f}")
    print(f"median per-deal ratio ours/colver: {statistics.median(ratios):.2f}")
    print(f"cards with different values: {differences} deals")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate tests/data/corpus.jsonl: positions solved by tests/independent_solver.py.

    python tests/make_corpus.py [--full 100] [--mid 300] [--jobs 2]

Mid-play positions (3 to 5 tricks left) are solved outright for points, score and make. Full
deals are too big for a full-window search in plain Python, so there the engine proposes a
points value and the independent solver proves it with two null-window searches (value >= v
and value <= v); should a proof fail, the independent solver searches the full window itself.
Either way every stored value is established by the independent solver.
"""
import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from independent_solver import INF, _Round, _search, solve_independently  # noqa: E402
from solver import Deal, Game, Rules, Seat, Solver, Suit, Team  # noqa: E402
from solver.model.scoring import point_factor  # noqa: E402

OUT = HERE / "data" / "corpus.jsonl"

VARIANTS = {
    "amsterdam": {},
    "rotterdam": {"trump_duty": "rotterdam"},
    "rotterdam_must": {"trump_duty": "rotterdam", "undertrump": "must"},
    "amsterdam_free": {"undertrump": "free"},
    "stuk_hand": {"stuk": "hand"},
    "stuk_none": {"stuk": "none"},
    "roem_none": {"roem": "none"},
    "roem_hand_kraak": {"roem": "hand", "multiplier": 2},
    "roem_hand_needs_trick": {"roem": "hand", "hand_roem_needs_trick": True},
    "pit_playing": {"pit": "playing"},
    "pit_none_90": {"pit": "none", "pit_bonus": 90},
    "schoppen_dubbel": {"double_suits": ["S"]},
    "nat_82": {"nat": "82"},
    "nat_none_zero_bonus": {"nat": "none", "zero_bonus": 50},
    "four_nines": {"four_of_a_kind": {"A": 100, "K": 100, "Q": 100, "T": 100, "J": 200, "9": 100}},
    "rekraak_rotterdam": {"trump_duty": "rotterdam", "multiplier": 4},
}
NAMES = sorted(VARIANTS)


def job(kind: str, seed: int) -> dict:
    rng = random.Random(seed)
    variant = NAMES[seed % len(NAMES)]
    rules = Rules(**VARIANTS[variant])
    game = Game(Deal.random(seed), trump=Suit(rng.randrange(4)), leader=Seat(rng.randrange(4)),
                playing=Team(rng.randrange(2)), rules=rules)
    if kind == "mid":
        for _ in range(rng.randrange(12, 21)):
            game.play(rng.choice(game.legal_cards()))
    row = {"kind": kind, "variant": variant, "deal": game.deal.to_pbn(),
           "trump": game.trump.name, "leader": game.leader.name, "playing": game.playing.name,
           "rules": rules.to_dict(), "played": [str(c) for c in game.played]}
    if kind == "mid":
        for objective in ("points", "score", "make"):
            row[objective] = solve_independently(game, objective)
    else:
        row["points"] = prove_points(game)
        row["make"] = prove_make(game, row["points"])
    return row


def prove_points(game: Game) -> int:
    claim = Solver(game.rules).value(game, "points")
    memo: dict = {}
    at_least = _search(_Round(game, "points"), claim - 1, claim, memo) >= claim
    at_most = _search(_Round(game, "points"), claim, claim + 1, memo) <= claim
    if at_least and at_most:
        return claim
    print(f"engine claim {claim} not proven; full search", file=sys.stderr)
    return _search(_Round(game, "points"), -INF, INF, {})


def prove_make(game: Game, points: int) -> bool:
    rules = game.rules
    if rules.nat == "82" and rules.multiplier == 1:
        threshold = 82 * point_factor(rules, game.trump)
        return _search(_Round(game, "cards"), threshold - 1, threshold, {}) >= threshold
    return points > 0


def run(args_pair):
    return job(*args_pair)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", type=int, default=100)
    parser.add_argument("--mid", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    jobs = [("mid", 10_000 + i) for i in range(args.mid)] + [("full", i) for i in range(args.full)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    start = time.time()
    with multiprocessing.Pool(args.jobs) as pool, open(args.out, "w") as out:
        for done, row in enumerate(pool.imap(run, jobs), start=1):
            out.write(json.dumps(row) + "\n")
            out.flush()
            if done % 25 == 0 or done == len(jobs):
                print(f"{done}/{len(jobs)} positions, {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()

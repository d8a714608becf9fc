"""The environments for learning, under random play: steps a second of the PettingZoo
environment (each step reads its observation) and of the OpenSpiel game (each step asks for the
information state tensor), the rounds dealt by the environments themselves.

    python benchmarks/bench_envs.py [--rounds 100]

Each figure is the best of three passes over the same rounds.
"""
import argparse
import random
import time

import numpy as np
import pyspiel

import solver.openspiel  # noqa: F401  (registers "klaverjas" with OpenSpiel)
from solver.pettingzoo import env as pettingzoo_env


def pettingzoo_steps(rounds):
    """(cards played, seconds) of `rounds` rounds of random legal play."""
    env, rng, steps = pettingzoo_env(), np.random.default_rng(0), 0
    start = time.perf_counter()
    for seed in range(rounds):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - start


def openspiel_steps(rounds):
    """(player moves, seconds) of `rounds` rounds of random play, chance included."""
    game, rng, steps = pyspiel.load_game("klaverjas"), random.Random(0), 0
    start = time.perf_counter()
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.information_state_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args(argv)
    for name, run in (("PettingZoo, with the observation", pettingzoo_steps),
                      ("OpenSpiel, with the information state tensor", openspiel_steps)):
        best = max(steps / seconds for steps, seconds in (run(args.rounds) for _ in range(3)))
        print(f"{name}: {best:,.0f} steps a second", flush=True)


if __name__ == "__main__":
    main()

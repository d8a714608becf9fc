"""Generate a few training labels: random positions with the exact value of every legal card.

Run: python examples/labels.py
"""
import json
import random

from solver import Deal, Game, Rules, Solver

rules = Rules.amsterdam()
solver = Solver(rules)
rng = random.Random(7)
for seed in range(5):
    game = Game(Deal.random(seed), trump=rng.choice("CDHS"), leader=rng.choice("NESW"),
                playing=rng.choice(["NS", "EW"]), rules=rules)
    for _ in range(rng.randrange(0, 20)):          # a random point in the round
        game.play(rng.choice(game.legal_cards()))
    values = solver.move_values(game, "points")
    print(json.dumps({"deal": game.deal.to_pbn(), "trump": game.trump.name,
                      "leader": game.leader.name, "playing": game.playing.name,
                      "played": [str(c) for c in game.played], "to_move": game.to_move.name,
                      "values": {str(c): v for c, v in values.items()}}))

"""Analyse a finished round: what each card cost, where the deal was lost, illegal cards.

Run: python examples/analyse_game.py   (reads examples/game.json)
"""
from pathlib import Path

from solver import GameRecord, analyse_play

record = GameRecord.load(Path(__file__).with_name("game.json"))
analysis = analyse_play(record)
for step in analysis.steps:
    if step.loss:
        best = " ".join(map(str, step.best_cards))
        print(f"trick {step.trick}: {step.seat.name} played {step.card}, costing {step.loss} "
              f"points (best: {best})")
print()
print(analysis.summary())

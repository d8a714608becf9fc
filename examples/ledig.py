"""Ledig: a bidder undertakes to take no trick. Judge a recorded ledig round card by card,
in tricks, see where the bidder took its first trick, and which seats could have bid ledig.

Run: python examples/ledig.py   (reads examples/ledig.json)
"""
from pathlib import Path

from solver import GameRecord, Seat, analyse_play, solve_table

record = GameRecord.load(Path(__file__).with_name("ledig.json"))
print(record.deal.to_text())
print()
analysis = analyse_play(record)
for step in analysis.steps:
    if step.loss:
        best = " ".join(map(str, step.best_cards))
        print(f"trick {step.trick}: {step.seat.name} played {step.card}, costing {step.loss} "
              f"trick{'s' if step.loss > 1 else ''} (best: {best})")
print()
print(analysis.summary())
print()
# Every bidder and leader: minus the tricks the bidder takes with best play; 0 is made.
table = solve_table(record.deal, record.rules)
print(table)
makers = [seat.name for seat in Seat if table.makeable(seat, record.leader)]
print(f"\nwith {record.leader.name} leading, ledig was makeable for: {', '.join(makers) or 'no seat'}")

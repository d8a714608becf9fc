"""A round at a table of three (Driemansklaverjas), reported: Anna chooses spades and plays
her own hand (W) and the dummy's (E), Bob (N) and Carla (S) defend. The page marks the dummy
and keeps it face down until the defenders may see it; each player gets his own score.

Run: python examples/three_players.py   (writes the report to a temporary folder)
"""
import tempfile
from pathlib import Path

from solver import GameRecord, Solver, analyse_play, solve_table
from solver.html import render

record = GameRecord.from_dict({
    "deal": "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ", "dealer": "E",
    "trump": "S", "playing": "EW", "dummy": "E",   # the dummy is of the playing team
    "rules": {"players": 3, "dummy_open": "after_lead"},
    "players": {"W": "Anna", "N": "Bob", "S": "Carla"},
    "played": "SK S9 SA SJ  HJ HA HT H9  C9 CJ C7 CT  ST SQ S8 S7  D8 D7 DJ D9  "
              "CQ C8 DT DA  CK HQ DQ H7  CA HK DK H8"})

analysis = analyse_play(record, worlds=8, seed=1)   # single dummy: from what each could see
page = render(analysis, solve_table(record.deal, record.rules),
              Solver(record.rules).value(record.game(), "score"))
out = Path(tempfile.mkdtemp()) / "three_players.html"
out.write_text(page, encoding="utf-8")

print(f"wrote {out}")
print(f"double dummy at the start: {analysis.start_value:+d} for {record.playing}")
for player, score in analysis.player_scores():
    print(f"  {player.label}: {score}")

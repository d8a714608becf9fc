"""Single dummy: judge a card by what its player could know, not by the hidden cards.

Run: python examples/single_dummy.py
"""
from solver import GameRecord, analyse_play, analyse_view

record = GameRecord.load("examples/unlucky.json")
analysis = analyse_play(record, worlds=64, seed=1)
step = analysis.steps[-1]
print(f"{step.seat} played {step.card}: double dummy it lost {step.loss} (best "
      f"{' '.join(map(str, step.best_cards))}); from what {step.seat} could see, expected loss "
      f"{step.sd_loss:.1f} (best {' '.join(map(str, step.sd_best_cards))}): {step.verdict}")

game = record.game()
game.replay(record.played[:-1])          # the position before that card
print(analyse_view(game, worlds=64, seed=1))

"""Replay a recorded round card by card and score it under the rules of the table.

Run: python examples/replay_and_score.py
"""
from solver import Deal, Game, IllegalPlayError, Rules, Team
from solver.model.scoring import final_scores

deal = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
recorded = ("HA HT H9 HJ  SQ S9 S7 SJ  CT C9 CJ C7  ST SK S8 SA "
            "D9 D8 DA DJ  H7 CQ HQ DQ  HK DK H8 CK  C8 DT D7 CA")

game = Game(deal, trump="S", leader="S", playing="EW", rules=Rules.amsterdam())
game.replay(recorded)
for trick in game.tricks:
    cards = " ".join(f"{trick.seat_of(i).name}:{c}" for i, c in enumerate(trick.cards))
    print(f"trick {trick.number}: {cards:<24} won by {trick.winner.name}"
          f"  {trick.points:3d} points" + (f" + {trick.roem} roem" if trick.roem else ""))

tallies = game.tallies()
scores = final_scores(tallies, game.playing, game.trump, game.rules)
for team in Team:
    t = tallies[team]
    print(f"{team.name}: {t.card_points} points + {t.roem} roem + {t.pit} pit = {t.total}"
          f"  -> scores {scores[team]}")

# A recorded play with a revoke: the error says which card, seat, trick and duty.
try:
    Game(deal, trump="S", leader="S", playing="EW").replay("HA HT H9 SJ")
except IllegalPlayError as err:
    print("illegal:", err)

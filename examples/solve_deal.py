"""Solve a deal double dummy: the value, one optimal line, and the value of every first card.

Run: python examples/solve_deal.py
"""
from solver import Deal, Rules, solve, solve_moves

deal = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
print(deal.to_text())

rules = Rules.amsterdam()
result = solve(deal, trump="S", leader="S", playing="EW", rules=rules)
print(f"\nEW plays spades, South leads: {result}")
tricks = [result.line[i:i + 4] for i in range(0, 32, 4)]
for number, trick in enumerate(tricks, start=1):
    print(f"  trick {number}: {' '.join(c.to_str(symbols=True) for c in trick)}")

print("\nCan EW make it?", solve(deal, "S", "S", "EW", rules=rules, objective="make").value)

values = solve_moves(deal, trump="S", leader="S", playing="EW", rules=rules)
print("South's first card, value for EW after it:",
      "  ".join(f"{card}:{value:+d}" for card, value in sorted(values.items())))

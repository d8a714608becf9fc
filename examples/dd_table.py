"""Print the double-dummy table of a deal: the points value for every trump and leader.

Run: python examples/dd_table.py
"""
from solver import Deal, Rules, solve_table

deal = Deal.random(2026)
print(deal.to_text())
print()
table = solve_table(deal, rules=Rules.amsterdam())
print(table)
print("\nas a NumPy array [trump C D H S][leader N E S W]:")
print(table.to_numpy())

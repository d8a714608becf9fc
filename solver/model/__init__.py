"""The game itself, in plain Python: cards, deals, rules (with their presets), the game and its
scoring, the game record, and the seeded streams every draw is taken from.

It imports nothing but `solver.errors` and the standard library, so it works without the
compiled engine: it is the readable statement of the rules that the engine is tested against.
"""

"""A bot of your own, in the arena: `HighestCard` plays its strongest legal card.

Run: python examples/highest_card_bot.py
Or seat it on the command line by module and class (the module must be importable):

    PYTHONPATH=examples klaverjas arena --team-a highest_card_bot:HighestCard --team-b rule
"""
from solver.bots import Bot


class HighestCard(Bot):
    """Plays its strongest legal card (trump above the rest)."""

    name = "highest"

    def choose(self, game, seat):
        return max(game.legal_cards(), key=lambda card: card.strength(game.trump))


if __name__ == "__main__":
    from solver.arena import play_arena
    print(play_arena(HighestCard(), "rule", deals=4, seed=1, workers=1))

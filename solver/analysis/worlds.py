"""The worlds a player cannot tell apart live in the model (`solver.model.worlds`), since
they need nothing but the rules; their names stay importable from here."""
from ..model.worlds import (MOST_WORLDS, count_worlds, excluded_cards, same_round,
                            sample_worlds, seen)

__all__ = ["MOST_WORLDS", "count_worlds", "excluded_cards", "same_round", "sample_worlds",
           "seen"]

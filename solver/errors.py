"""The errors users see. Each is a ValueError whose message names the card, seat or option."""


class DealError(ValueError):
    """A deal that is not four hands of 8 cards covering the 32 cards once each."""


class RulesError(ValueError):
    """An unknown rule option, or a value the option does not allow."""


class IllegalPlayError(ValueError):
    """A card that may not be played: not in the hand, or breaking a duty of RULES.md."""

    def __init__(self, message: str, *, card=None, seat=None, trick=None, duty=None):
        super().__init__(message)
        self.card = card
        self.seat = seat
        self.trick = trick
        self.duty = duty


class RecordError(ValueError):
    """A game record (JSON) with a missing or malformed field; the message names the field."""

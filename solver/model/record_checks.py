"""What a game record must say beyond its fields' own shapes: a ledig round's bidder and
playing team, one name a team at a table of two, and a play that can happen at a table."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping

from .cards import Seat, Team
from ..errors import IllegalPlayError, RecordError, SolverError, quote
from .players import MOST_NAME_CHARACTERS

if TYPE_CHECKING:
    from .record import GameRecord


def check_players(record: "GameRecord") -> None:
    """At a table of two one person holds both hands of a team: one name for both seats."""
    if not record.players or record.rules.players != 2:
        return
    for team in Team:
        named = {record.players[s] for s in team.seats if s in record.players}
        if len(named) > 1:
            raise RecordError(f"game record field 'players': at a table of two one player "
                              f"holds {team.name}, but its seats name {' and '.join(sorted(named))}")


def settle_ledig(record: "GameRecord") -> None:
    """A ledig round names its bidder, and its playing team follows from it (set here when
    left out); a trump round has no bidder."""
    if record.rules.contract != "ledig":
        if record.bidder is not None:
            raise RecordError(f"game record field 'bidder' is only for a ledig round "
                              f"(rules contract 'ledig'), and these rules have contract "
                              f"{record.rules.contract!r}")
        return
    if record.bidder is None:
        raise RecordError("game record of a ledig round (rules contract 'ledig') has no "
                          "'bidder' field: name the seat that bid ledig")
    try:
        bidder = Seat.parse(record.bidder)
    except SolverError as err:
        raise RecordError(f"game record field 'bidder': {err}") from None
    object.__setattr__(record, "bidder", bidder)
    if record.playing is None:
        object.__setattr__(record, "playing", bidder.team)
    elif record.playing != bidder.team:
        raise RecordError(f"game record field 'playing': {record.playing.name} is "
                          f"not the team of the bidder {bidder.name}; in a ledig round the "
                          f"bidder's team plays (leave 'playing' out)")
    if record.trump is not None and record.rules.ledig_trump == "none":
        raise RecordError("game record field 'trump': a ledig round under rules ledig_trump "
                          "'none' has no trump; leave 'trump' out (or set ledig_trump "
                          "'chosen')")
    if record.trump is None and record.rules.ledig_trump == "chosen":
        raise RecordError("game record of a ledig round with rules ledig_trump 'chosen' "
                          "has no 'trump' field: name the trump suit")


def check_cards_can_be_played(record: "GameRecord") -> None:
    """Every card is held by the seat that plays it, and none comes after the 32nd; a held
    card that breaks a duty is a revoke, which the record keeps."""
    try:
        game = record.game()
    except SolverError as err:     # what Game refuses in the round's setting (a dummy
        # the table does not have or misses, a ledig bidder's team)
        raise RecordError(f"game record: {err}") from None
    for number, card in enumerate(record.played, start=1):
        try:
            game.place(card)
        except IllegalPlayError as err:
            if err.duty == "over":
                raise RecordError(f"game record field 'played': card {number} ({card}) comes "
                                  f"after the end of the round; a round has 32 cards") from None
            raise RecordError(f"game record field 'played': card {number}, {err}") from None


def player_names(names: Any) -> Dict[Seat, str]:
    """The record's "players": each named seat's player, e.g. {"N": "Anna", "E": "Bob"}."""
    if not isinstance(names, Mapping):
        raise RecordError(f"must map seats to the names of their players, e.g. "
                          f"{{\"N\": \"Anna\"}}; got {quote(names)}")
    parsed: Dict[Seat, str] = {}
    for seat, name in names.items():
        where = Seat.parse(seat)
        if not isinstance(name, str) or not name.strip() or len(name) > MOST_NAME_CHARACTERS:
            raise RecordError(f"seat {where.name}: a player's name is text of 1 to "
                              f"{MOST_NAME_CHARACTERS} characters, got {quote(name)}")
        parsed[where] = name.strip()
    return dict(sorted(parsed.items()))

"""The board's requests and answers: a position as JSON (the round and the cards played), read
into a `Game` by the model's own parsers, and the board's state of a position as JSON.

Every card in a request or an answer is in the English letters of the model ("SA", "HT");
the page shows them in the notation the user picks.
"""
from __future__ import annotations

import copy
import dataclasses
from typing import Any, Dict, Hashable, List, Optional, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field

from ..engine.search import optimal_cards
from ..errors import RecordError, SolverError
from ..model.cards import LAST_TRICK_BONUS, Card, Seat
from ..model.deal import Deal
from ..model.game import Game, Trick, trick_roem
from ..model.record import GameRecord
from ..model.rules import Rules, load_rules
from ..model.scoring import Value, is_made, point_factor, value_for_team
from .engine import Engine, round_key

# Request bodies are small: a record file of many rounds stays well under this.
MOST_TEXT = 1 << 20
SHORT = 200
RulesIn = Union[str, Dict[str, Any]]


class Strict(BaseModel):
    """A request body: unknown fields are refused by name."""

    model_config = ConfigDict(extra="forbid")


class PositionIn(Strict):
    """A round and the cards played: the deal in the notation of `Deal.from_pbn`, trump,
    leader, playing team (a ledig round: the bidder; a table of three: the dummy), the rules
    (a preset name or options) and the cards played, in order."""

    deal: str = Field(max_length=SHORT, examples=["N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"])
    trump: Optional[str] = Field(None, max_length=8, examples=["S"])
    leader: str = Field(max_length=8, examples=["S"])
    playing: Optional[str] = Field(None, max_length=8, examples=["EW"])
    rules: RulesIn = "amsterdam"
    bidder: Optional[str] = Field(None, max_length=8)
    dummy: Optional[str] = Field(None, max_length=8)
    played: List[str] = Field(default_factory=list, max_length=40, examples=[["SK", "S9"]])
    # The board stands after this many of the cards played (default: all of them); the rest
    # of the line is shown ahead of it.
    at: Optional[int] = Field(None, ge=0, le=32)


class CardIn(PositionIn):
    """A position and one legal card of the player to move."""

    card: str = Field(max_length=8, examples=["SA"])


class ViewIn(PositionIn):
    """A position and the single-dummy job's bounds: at most `worlds` worlds, `batch` at a
    time, for at most `seconds`, sampled from `seed`."""

    worlds: int = Field(64, ge=1, le=512)
    batch: int = Field(8, ge=1, le=64)
    seconds: float = Field(20.0, gt=0, le=120)
    seed: int = Field(0, ge=0, le=2 ** 32)


class ExportIn(PositionIn):
    """A position to keep, with what a record also holds: the dealer and the players' names."""

    dealer: Optional[str] = Field(None, max_length=8)
    players: Optional[Dict[str, str]] = None


class DealIn(Strict):
    """A deal to read: pasted text in a card notation ("auto" tries en, then nl), or a seed."""

    text: Optional[str] = Field(None, max_length=SHORT)
    notation: str = Field("auto", max_length=8)
    seed: Optional[int] = Field(None, ge=0, le=2 ** 64 - 1)


class RecordIn(Strict):
    """A record file's text: one JSON record, or JSON Lines of many rounds."""

    text: str = Field(max_length=MOST_TEXT)


class TableIn(Strict):
    """A deal and the rules for the double-dummy table of every trump and leader."""

    deal: str = Field(max_length=SHORT)
    rules: RulesIn = "amsterdam"


class BidIn(TableIn):
    """The bid check (`analyse_bidding`): dealer, procedure, turned suit, the recorded bid
    ("N H"), and the worlds for the chances from the seat's own hand."""

    dealer: str = Field(max_length=8)
    procedure: str = Field("draaikaart", max_length=40)
    turned: Optional[str] = Field(None, max_length=8)
    on_all_pass: str = Field("turned_forced", max_length=40)
    chooser_leads: bool = False
    bid: Optional[str] = Field(None, max_length=16)
    worlds: int = Field(0, ge=0, le=64)
    seed: int = Field(0, ge=0, le=2 ** 32)


# -- reading requests --------------------------------------------------------------------

def read_rules(rules: RulesIn) -> Rules:
    """The rules of a request (a preset name or options), by the model's `load_rules`."""
    return load_rules(rules)


def read_deal(text: str, notation: str = "en") -> Deal:
    """A deal in PBN, in Dutch letters or with suit symbols (`Deal.from_pbn`); notation
    "auto" reads English letters, else Dutch ones, and names the English error."""
    if notation != "auto":
        return Deal.from_pbn(text, notation)
    try:
        return Deal.from_pbn(text, "en")
    except SolverError as err:
        try:
            return Deal.from_pbn(text, "nl")
        except SolverError:
            raise err from None


def read_game(position: PositionIn) -> Game:
    """The position a request names, every card checked by `Game.play`."""
    game = Game(read_deal(position.deal), position.trump, position.leader, position.playing,
                read_rules(position.rules), bidder=position.bidder, dummy=position.dummy)
    game.replay(position.played)
    return game


def read_position(position: PositionIn) -> Game:
    """The position after the first `at` cards played (all of them when `at` is None)."""
    game = read_game(position)
    if position.at is not None:
        if position.at > len(game.played):
            raise SolverError(f"at={position.at}: only {len(game.played)} cards are played")
        while len(game.played) > position.at:
            game.undo()
    return game


def read_records(text: str) -> List[GameRecord]:
    """The rounds of a record file: one JSON object, or one per line (JSON Lines)."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise RecordError("the record file is empty: a record is a JSON object (see examples/game.json)")
    try:
        return [GameRecord.from_json(stripped)]
    except RecordError as single:
        # Another object starting a line: JSON Lines, whose error names the line. Otherwise
        # one record (perhaps over many lines), whose error is the one to show.
        if "\n{" not in stripped:
            raise
        try:
            return GameRecord.from_json_lines(stripped)
        except RecordError as many:
            raise many from single


def round_of(record: GameRecord) -> Dict[str, Any]:
    """A record as the page opens it: the round (a position with nothing played), the real
    line (the cards of the record), the dealer and the players' names."""
    data = record.to_dict()
    return {"deal": data["deal"], "trump": data.get("trump"), "leader": data["leader"],
            "playing": data["playing"], "rules": data["rules"], "bidder": data.get("bidder"),
            "dummy": data.get("dummy"), "played": data["played"],
            "dealer": data.get("dealer"), "players": data.get("players") or {}}


def record_of(export: ExportIn) -> GameRecord:
    """The explored line as a record (`GameRecord`): the round, its dealer and names."""
    game = read_game(export)
    players = None if not export.players else {Seat.parse(seat): name for seat, name
                                               in export.players.items() if name}
    chooser_leads = export.dealer is not None and Seat.parse(export.dealer).left != game.leader
    return GameRecord(game.deal, game.trump, game.leader, game.playing, game.rules,
                      tuple(game.played), None if export.dealer is None else Seat.parse(export.dealer),
                      chooser_leads, game.bidder, game.dummy, players or None)


# -- the board's state ---------------------------------------------------------------------

def card_values(engine: Engine, game: Game, round_: Optional[Tuple[Hashable, ...]] = None
                ) -> Dict[str, Any]:
    """The legal cards' values for the side to move (points; tricks in ledig), the best of
    them, and the position's value for the playing team (`round_`: the round's key, see
    `Engine.move_values`)."""
    if game.is_over:
        return {"values": {}, "best": [], "value": game.objective_value("points")}
    values = engine.move_values(game, round_)
    team = game.to_move.team
    mover = {card: value_for_team(value, team, game.playing) for card, value in values.items()}
    best = optimal_cards(mover)
    return {"values": {str(card): int(value) for card, value in mover.items()},
            "best": [str(card) for card in best], "value": int(values[best[0]])}


def trick_json(game: Game, trick: Trick) -> Dict[str, Any]:
    """A finished trick: who played what, the winner, card points and roem (stuk apart)."""
    no_stuk = dataclasses.replace(game.rules, stuk="none")
    roem_without_stuk = (0 if game.rules.contract == "ledig"
                         else trick_roem(trick.cards, game.trump, no_stuk))
    return {"number": trick.number, "leader": trick.leader.name,
            "cards": [{"seat": trick.seat_of(i).name, "card": str(c)}
                      for i, c in enumerate(trick.cards)],
            "winner": trick.winner.name, "team": trick.winner.team.name,
            "points": trick.points, "roem": roem_without_stuk,
            "stuk": trick.roem - roem_without_stuk, "last": trick.number == 8}


def line_json(game: Game) -> List[Dict[str, Any]]:
    """Every card of `game`'s line: its seat, its trick, and the trick's winner once the
    trick is complete."""
    cards: List[Dict[str, Any]] = []
    for trick in game.tricks:
        cards += [{"card": str(c), "seat": trick.seat_of(i).name, "trick": trick.number,
                   "winner": trick.winner.name} for i, c in enumerate(trick.cards)]
    leader = game.trick_leader
    cards += [{"card": str(c), "seat": Seat((leader + i) % 4).name, "trick": game.trick_number,
               "winner": None} for i, c in enumerate(game.current_trick)]
    return cards


def state(engine: Engine, line: Game, at: Optional[int] = None) -> Dict[str, Any]:
    """The board after the first `at` cards of `line` (default: all): the hands, the trick on
    the table, the finished tricks, the values of the legal cards, the playing team's value
    after every card of the line (the chart), the tallies, and once the round is over the
    result and the score. `line` is the whole line, each card already checked."""
    at = len(line.played) if at is None else at
    if at > len(line.played):
        raise SolverError(f"at={at}: the line has only {len(line.played)} cards")
    chart: List[Value] = []
    walk = Game(line.deal, line.trump, line.leader, line.playing, line.rules,
                bidder=line.bidder, dummy=line.dummy)
    game = copy.deepcopy(walk)          # the board's position, once the walk passes it
    key = round_key(line)
    for number, card in enumerate(line.played, start=1):
        chart.append(card_values(engine, walk, key)["value"])
        walk.place(card)                # each card was checked when the line was read
        if number == at:
            game = copy.deepcopy(walk)
    chart.append(card_values(engine, walk, key)["value"])
    here = card_values(engine, game, key)
    trick_leader = game.trick_leader
    ledig = game.rules.contract == "ledig"
    tallies = game.tallies()
    result: Optional[Dict[str, Any]] = None
    if game.is_over:
        scores = game.final_scores()
        made = (game.bidder_tricks() == 0 if ledig
                else is_made(tallies, game.playing, game.trump, game.rules))
        result = {"scores": scores.to_dict(), "made": made}
    return {
        "round": {"deal": game.deal.to_pbn(), "trump": None if game.trump is None else game.trump.name,
                  "leader": game.leader.name, "playing": game.playing.name,
                  "bidder": None if game.bidder is None else game.bidder.name,
                  "dummy": None if game.dummy is None else game.dummy.name,
                  "rules": game.rules.to_dict()},
        "unit": "tricks" if ledig else "points",
        "played": [str(c) for c in game.played], "at": at, "line": line_json(line),
        "dealt": {seat.name: [str(c) for c in game.deal[seat]] for seat in Seat},
        "hands": {seat.name: [str(c) for c in sorted(game.hands[seat])] for seat in Seat},
        "to_move": None if game.is_over else game.to_move.name,
        "trick_number": min(game.trick_number, 8),
        "table": [{"seat": Seat((trick_leader + i) % 4).name, "card": str(c)}
                  for i, c in enumerate(game.current_trick)],
        "tricks": [trick_json(game, t) for t in game.tricks],
        "values": here["values"], "best": here["best"], "value": here["value"],
        "chart": chart,
        "tallies": {team.name: {"points": t.card_points, "roem": t.roem, "pit": t.pit,
                                "total": t.total, "tricks": game.tricks_won()[team]}
                    for team, t in tallies.items()},
        "bidder_tricks": game.bidder_tricks() if ledig else None,
        "over": game.is_over,
        "result": result,
    }


def perfect_line(engine: Engine, game: Game) -> List[str]:
    """One optimal continuation to the end of the round (`Solver.solve`'s line)."""
    if game.is_over:
        return []
    result = engine.solver().solve(game.deal, game.trump, game.leader, game.playing, game.rules,
                                   list(game.played), bidder=game.bidder, dummy=game.dummy)
    return [str(c) for c in result.line]


def why(engine: Engine, game: Game, card: str) -> Dict[str, Any]:
    """How `card` lost what it lost: the perfect continuation after it and after the best
    card, trick by trick from the trick being played, the first trick where they part (a
    trick won by the other team, or worth other points or roem), and the difference in card
    points, last trick, roem, stuk and pit for the side to move."""
    chosen = game.check(card)
    here = card_values(engine, game)
    team = game.to_move.team
    best = Card.parse(here["best"][0])
    last_bonus = (0 if game.rules.contract == "ledig"
                  else LAST_TRICK_BONUS * point_factor(game.rules, game.trump))
    lines = {}
    for name, first in (("card", chosen), ("best", best)):
        after = copy.deepcopy(game)
        after.play(first)
        continuation = [first] + [Card.parse(c) for c in perfect_line(engine, after)]
        end = copy.deepcopy(game)
        for c in continuation:
            end.place(c)
        tricks = [trick_json(end, t) for t in end.tricks[len(game.tricks):]]
        tally = end.tally(team)
        other = end.tally(team.other)
        kinds = _what_counts(tricks, team.name, last_bonus)
        kinds["pit"] = tally.pit - other.pit
        lines[name] = {"card": str(first), "line": [str(c) for c in continuation],
                       "tricks": tricks, "counts": kinds,
                       "value": here["values"][str(first)]}
    parted = next((i for i, (a, b) in enumerate(zip(lines["card"]["tricks"], lines["best"]["tricks"]))
                   if (a["team"], a["points"], a["roem"], a["stuk"]) !=
                   (b["team"], b["points"], b["roem"], b["stuk"])), None)
    moved = {kind: lines["best"]["counts"][kind] - lines["card"]["counts"][kind]
             for kind in lines["card"]["counts"]}
    return {"team": team.name, "unit": "tricks" if game.rules.contract == "ledig" else "points",
            "loss": here["values"][str(best)] - here["values"][str(chosen)],
            "card": lines["card"], "best": lines["best"],
            "parts_at": None if parted is None else lines["card"]["tricks"][parted]["number"],
            "moved": moved}


def _what_counts(tricks: List[Dict[str, Any]], team: str, last_bonus: int) -> Dict[str, int]:
    """`team`'s card points, last-trick bonus (`last_bonus` on trick 8), roem, stuk and
    tricks over `tricks`, less the other team's."""
    counts = {"card_points": 0, "last_trick": 0, "roem": 0, "stuk": 0, "tricks": 0}
    for t in tricks:
        sign = 1 if t["team"] == team else -1
        bonus = last_bonus if t["last"] else 0
        counts["last_trick"] += sign * bonus
        counts["card_points"] += sign * (t["points"] - bonus)
        counts["roem"] += sign * t["roem"]
        counts["stuk"] += sign * t["stuk"]
        counts["tricks"] += sign
    return counts

"""The JSON Schema (draft 2020-12) of a game record, built from the model's own tables: the
notation letters of cards.py, the rule options of rules.py and the record's format version.

The package ships the result as `record.schema.json` (`GameRecord.json_schema()` reads it),
and a test holds that file equal to `build_schema()`; after a change to a table, write it anew:

    python -m solver.model.record_schema > solver/model/record.schema.json

The schema describes the shape of every field exactly as `GameRecord.from_dict` reads it,
lenient where the reader is (any letter case, spaces around a value, seats and suits as
numbers). What no schema can state is left to the reader: that a deal holds each card once,
and that the seats could play the recorded cards.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import fields
from typing import Any, Dict, List

from .cards import _RANK_LETTERS, _SUIT_LETTERS, _SUIT_SYMBOLS, NOTATIONS, Suit
from .deal import _PBN_SUIT_ORDER
from .players import MOST_NAME_CHARACTERS
from .rules import (_CHOICES, _MULTIPLIERS, MAKE_THRESHOLD, MAX_AMOUNT, PLAYER_COUNTS,
                    RULE_PRESETS, Rules)

# The version `to_dict` writes; a record without a `format` field is format 1. A change that
# an older reader would misread (the contracts' bidder for ledig) gets the next number; the
# optional dummy and players fields are format 1 (an older reader refuses them by name).
RECORD_FORMAT = 1

_SPACE = r"\s*"


def _any_case(word: str) -> str:
    """A regex matching `word` in any letter case: JSON Schema patterns have no (?i) flag."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word)


def _letters(letters: List[str]) -> str:
    """A character class of single letters in both cases."""
    chars = sorted({c for letter in letters for c in (letter.upper(), letter.lower())})
    return "[" + "".join(chars) + "]"


def _suit(notation: str) -> str:
    return _letters(list(_SUIT_LETTERS[notation]) + list(_SUIT_SYMBOLS))


def _rank(notation: str) -> str:
    # "T" and "10" name the ten in both notations.
    singles = [r for r in _RANK_LETTERS[notation] if len(r) == 1] + ["T"]
    return f"(?:10|{_letters(singles)})"


def _card(notation: str) -> str:
    return _suit(notation) + _rank(notation)


def _hand(notation: str) -> str:
    # spades.hearts.diamonds.clubs: each suit "-" or ranks, after its own symbol if shown.
    symbols = {suit: [s for s, named in _SUIT_SYMBOLS.items() if named == suit] for suit in Suit}
    groups = [f"[{''.join(symbols[suit])}]?(?:-|{_rank(notation)}*)" for suit in _PBN_SUIT_ORDER]
    return r"\.".join(groups)


def _number(least: int, most: int, description: str) -> Dict[str, Any]:
    return {"type": "integer", "minimum": least, "maximum": most, "description": description}


def _either(*schemas: Dict[str, Any], description: str) -> Dict[str, Any]:
    return {"description": description, "anyOf": list(schemas)}


def _pattern(pattern: str) -> Dict[str, Any]:
    return {"type": "string", "pattern": f"^{pattern}$"}


def _card_fields(notation: str) -> Dict[str, Any]:
    """The fields written in a card notation: the deal, the trump and the cards played."""
    card, hand = _card(notation), _hand(notation)
    return {
        "properties": {
            "deal": {"anyOf": [
                _pattern(rf"{_SPACE}[NESWnesw]:{_SPACE}{hand}(?:\s+{hand}){{3}}{_SPACE}"),
                {"type": "null"}]},
            "trump": {"anyOf": [_pattern(f"{_SPACE}{_suit(notation)}{_SPACE}"),
                                {"type": "integer", "minimum": 0, "maximum": 3}]},
            "played": {"anyOf": [
                {"type": "array", "maxItems": 32,
                 "items": _pattern(f"{_SPACE}{_suit(notation)}{_SPACE}{_rank(notation)}{_SPACE}")},
                _pattern(rf"{_SPACE}(?:{card}(?:\s+{card}){{0,31}})?{_SPACE}")]},
        },
        # Without a deal, the play of all 32 cards shows it.
        "if": {"not": {"required": ["deal"], "properties": {"deal": {"type": "string"}}}},
        "then": {"required": ["played"], "properties": {"played": {"anyOf": [
            {"type": "array", "minItems": 32},
            _pattern(rf"{_SPACE}{card}(?:\s+{card}){{31}}{_SPACE}")]}}},
    }


def _rules_options() -> Dict[str, Any]:
    """Every option of `Rules`, from its own tables (docs/rules.md describes each)."""
    defaults = Rules().to_dict()
    en_suit = {"anyOf": [_pattern(f"{_SPACE}{_suit('en')}{_SPACE}"),
                         {"type": "integer", "minimum": 0, "maximum": 3}]}
    amount = {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT}
    options: Dict[str, Any] = {}
    for option in fields(Rules):
        name = option.name
        if name in _CHOICES:
            allowed: List[Any] = list(_CHOICES[name])
            if name == "nat":
                allowed.append(MAKE_THRESHOLD)     # "82" may be written as a number
            schema: Dict[str, Any] = {"enum": allowed}
        elif name == "four_of_a_kind":
            schema = {"type": "object", "description": "roem for four cards of a rank",
                      "propertyNames": _pattern(f"{_SPACE}{_rank('en')}{_SPACE}"),
                      "additionalProperties": amount}
        elif name == "double_suits":
            suits = rf"{_suit('en')}(?:[\s,]+{_suit('en')})*"
            schema = {"description": "suits whose card points count double",
                      "anyOf": [{"type": "array", "items": en_suit},
                                # One character is one suit; longer text is split at spaces
                                # and commas.
                                _pattern(rf"(?:{_suit('en')}|(?![\s\S]$)[\s,]*(?:{suits})?[\s,]*)")]}
        elif name == "multiplier":
            schema = {"type": "integer", "enum": list(_MULTIPLIERS)}
        elif name == "players":
            schema = {"type": "integer", "enum": list(PLAYER_COUNTS)}
        elif name == "hand_roem_needs_trick":
            schema = {"type": "boolean"}
        else:
            schema = dict(amount)
        schema["default"] = defaults[name]
        options[name] = schema
    if set(options) != set(defaults):
        raise AssertionError("every rule option needs a schema")
    presets = "|".join(_any_case(name) for name in RULE_PRESETS)
    return _either(
        {"type": "string", "description": "a preset: " + ", ".join(RULE_PRESETS),
         "pattern": f"^{_SPACE}(?:{presets}){_SPACE}$"},
        {"type": "object", "additionalProperties": False, "properties": options},
        description="a preset name, or the rule options (left out: the defaults)")


def _contract_fields() -> Dict[str, Any]:
    """What the contract asks of a record: a ledig round (rules contract "ledig") names its
    bidder, and its trump only under ledig_trump "chosen"; a trump round names its trump and
    playing team, and no bidder."""
    def rule(name: str, value: str) -> Dict[str, Any]:
        return {"required": ["rules"], "properties": {"rules": {
            "type": "object", "required": [name], "properties": {name: {"const": value}}}}}

    named = {"not": {"type": "null"}}
    return {"if": rule("contract", "ledig"),
            "then": {"required": ["bidder"], "properties": {"bidder": named},
                     "if": rule("ledig_trump", "chosen"), "then": {"required": ["trump"]}},
            "else": {"required": ["trump", "playing"],
                     "properties": {"bidder": {"type": "null"}}}}


def build_schema() -> Dict[str, Any]:
    """The schema of a game record, format `RECORD_FORMAT`."""
    seat = _either(_pattern(f"{_SPACE}[NESWnesw]{_SPACE}"),
                   {"type": "integer", "minimum": 0, "maximum": 3},
                   description="N, E, S or W (any case), or 0..3")
    teams = "|".join(_any_case(t) for t in ("NS", "SN", "EW", "WE"))
    team = _either(_pattern(f"{_SPACE}(?:{teams}){_SPACE}"),
                   {"type": "integer", "minimum": 0, "maximum": 1},
                   description="NS or EW (any case, either order), or 0 (NS) and 1 (EW)")
    given = [{"required": [name], "properties": {name: {"not": {"type": "null"}}}}
             for name in ("leader", "dealer")]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Klaverjas game record",
        "description": "A recorded round of Klaverjas: the deal, the trump, who leads and who "
                       "plays, the rules and the cards played (docs/record-format.md).",
        "type": "object",
        "properties": {
            "format": {"description": "the record format's version; absent means 1",
                       "type": "integer", "const": RECORD_FORMAT},
            "notation": {"description": "the card notation of deal, trump and played",
                         "enum": list(NOTATIONS), "default": "en"},
            "deal": {"description": "N:<hand> <hand> <hand> <hand>, hands from the named seat "
                                    "clockwise, each spades.hearts.diamonds.clubs; may be left "
                                    "out when played holds all 32 cards"},
            "dealer": {"anyOf": [seat, {"type": "null"}]},
            "leader": {"description": "who leads trick 1; absent: the seat left of the dealer",
                       "anyOf": [seat, {"type": "null"}]},
            "trump": {"description": "the trump suit: C D H S (nl: K R H S), a symbol, or 0..3"},
            "playing": team,
            "rules": {"$ref": "#/$defs/rules", "default": "amsterdam"},
            "played": {"description": "the cards played, in order: a list, or one string with "
                                      "spaces between the cards", "default": []},
            "chooser_leads": {"description": "the chooser leads, not the seat left of the dealer",
                              "type": "boolean", "default": False},
            # Tables of three and of two (docs/rules.md).
            "dummy": {"description": "the silent partner's seat, under the rule players=3",
                      "anyOf": [seat, {"type": "null"}]},
            "players": {"description": "the name of the player at each seat named",
                        "type": "object", "additionalProperties": False,
                        "patternProperties": {f"^{_SPACE}[NESWnesw]{_SPACE}$": {
                            "type": "string", "minLength": 1,
                            "maxLength": MOST_NAME_CHARACTERS}}},
            "bidder": {"description": "the seat that bid ledig (a ledig round only)",
                       "anyOf": [seat, {"type": "null"}]},
        },
        "additionalProperties": False,
        "anyOf": given,
        "allOf": [_contract_fields()],
        "if": {"required": ["notation"], "properties": {"notation": {"const": "nl"}}},
        "then": {"$ref": "#/$defs/nl"},
        "else": {"$ref": "#/$defs/en"},
        "$defs": {"en": _card_fields("en"), "nl": _card_fields("nl"),
                  "rules": _rules_options()},
    }


def schema_text() -> str:
    """The schema as the shipped file holds it."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(schema_text())

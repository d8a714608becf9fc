"""What the `klaverjas` command writes, made safe for the stream it goes to: suit symbols and
other signs fall back to letters on a stream that cannot encode them (LANG=C,
PYTHONIOENCODING=ascii), and file names keep bytes that are not UTF-8 as visible escapes.

A file name in a message is marked (`named`): it is printed as it is, or escaped where the
stream cannot encode it, but never given letters for its signs, which would name another file.
"""
from __future__ import annotations

import os
from typing import Dict, Union

from ..errors import shorten
from ..model.cards import Suit

# Each suit's signs, solid and outlined, in the order of Suit.
_SUIT_SIGNS = ("♣♧", "♦♢", "♥♡", "♠♤")
_OTHER_SIGNS = {"°": "o", "±": "+/-", "×": "x", "—": "-"}


def plain_signs(notation: str = "en") -> Dict[int, str]:
    """What a stream without the signs of the readable output shows instead, in `notation`:
    the suit letters of the notation its cards are written in (♦ is D in "en", R in "nl"), so
    that ♦H falls back to RH, not to a mix of the two notations."""
    suits = {sign: suit.letter_in(notation) for suit, signs in zip(Suit, _SUIT_SIGNS)
             for sign in signs}
    return str.maketrans({**suits, **_OTHER_SIGNS})


# Around a file name in the text to print (private-use characters no message holds).
NAME_START, NAME_END = "\ue000", "\ue001"


def named(path: Union[str, "os.PathLike[str]"], short: bool = True) -> str:
    """`path` for a message (`shown_path`, cut to a short line unless not `short`: what a
    command wrote is named whole), marked so that `printable` leaves its signs alone."""
    text = shown_path(path)
    return NAME_START + (shorten(text) if short else text) + NAME_END


def shown_path(path: Union[str, "os.PathLike[str]"]) -> str:
    """`path` as it can be printed on one line: a byte that is not UTF-8 (which Python keeps in
    a str as a lone surrogate) appears as its escape, \\xff, and so does a control character."""
    text = os.fspath(path)
    try:
        text = os.fsencode(text).decode("utf-8", "backslashreplace")
    except UnicodeError:      # a surrogate that no file name's bytes would give
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return one_line(text)


def one_line(text: str) -> str:
    """`text` with every character that is not printable (a newline, a tab, a lone surrogate)
    written as its escape, so that it stays one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in (NAME_START, NAME_END) else repr(c)[1:-1]
                   for c in text)


def printable(text: str, stream: object, notation: str = "en") -> str:
    """`text` as `stream` can encode it: unchanged where it can, else with plain letters for
    the signs its encoding lacks (suit letters of `notation`, the one its cards are written
    in), and a backslash escape for any character still left over."""
    encoding = getattr(stream, "encoding", None)
    plain = text.replace(NAME_START, "").replace(NAME_END, "")
    if not encoding:
        return plain
    try:
        plain.encode(encoding)
        return plain
    except UnicodeEncodeError:
        pass
    except LookupError:       # an encoding Python does not know: keep to ASCII
        encoding = "ascii"
    missing = {code: plain for code, plain in plain_signs(notation).items()
               if not _encodes(chr(code), encoding)}
    # The text between file names (the even pieces) takes letters for signs; names do not.
    pieces = text.replace(NAME_END, NAME_START).split(NAME_START)
    kept = "".join(piece if i % 2 else piece.translate(missing) for i, piece in enumerate(pieces))
    return kept.encode(encoding, "backslashreplace").decode(encoding)


def _encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False

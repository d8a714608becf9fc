"""What the `klaverjas` command writes, made safe for the stream it goes to: suit symbols and
other signs fall back to letters on a stream that cannot encode them (LANG=C,
PYTHONIOENCODING=ascii), and file names keep bytes that are not UTF-8 as visible escapes."""
from __future__ import annotations

import os
from typing import Optional, TextIO, Union

# What a stream without the signs of the readable output shows instead.
PLAIN_SIGNS = str.maketrans({
    "♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S",
    "°": "o", "±": "+/-", "×": "x", "—": "-"})


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
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def printable(text: str, stream: Optional[TextIO]) -> str:
    """`text` as `stream` can encode it: unchanged where it can, else with plain letters for
    the signs its encoding lacks, and a backslash escape for any character still left over."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return text
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:       # an encoding Python does not know: keep to ASCII
        encoding = "ascii"
    missing = {code: plain for code, plain in PLAIN_SIGNS.items() if not _encodes(chr(code), encoding)}
    return text.translate(missing).encode(encoding, "backslashreplace").decode(encoding)


def _encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False

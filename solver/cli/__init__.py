"""The `klaverjas` command's entry point: reads the command line (`parser`), runs the
subcommand (`commands`, reading its input through `inputs`), prints the result (`output`) and
turns every way it can fail into one line on stderr.

Exit status: 0 done, 1 the output could not be written (standard output closed, a full disk,
a folder without permission: any OSError, or an error raised from one), 2 bad input or a
missing/stale engine, 130 interrupted (Ctrl-C), 141 the reader of the
output went away (`klaverjas ... | head`), as Unix tools do.
"""
from __future__ import annotations

import os
import sys
from typing import List, Optional

from ..errors import SolverError
from .output import one_line, printable

DONE, CANNOT_WRITE, BAD_INPUT, INTERRUPTED, PIPE_CLOSED = 0, 1, 2, 130, 141


def main(argv: Optional[List[str]] = None) -> int:
    try:
        # Imported here, not above: a missing or stale engine is then one line, not a traceback.
        from .commands import COMMANDS, PRINTED_IN, WRITE_FILES
        from .parser import UsageError, build_parser
    except ImportError as err:
        return _fail(str(err))
    except KeyboardInterrupt:
        return _interrupted()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return BAD_INPUT
        if sys.stdout is None and args.command not in WRITE_FILES:
            # Said before the work, not after: nothing would show its result.
            return _fail("standard output is closed: nowhere to print the result", CANNOT_WRITE)
        args.argv = list(argv) if argv is not None else sys.argv[1:]
        text = COMMANDS[args.command](args)
        # The notation of the cards printed (PRINTED_IN: set by the command that prints them).
        return _print(text, getattr(args, PRINTED_IN, "en"))
    except (UsageError, SolverError) as err:
        # Raised from an OSError (a report or a shard that could not be written): the input
        # was sound, the machine refused.
        return _fail(str(err), CANNOT_WRITE if isinstance(err.__cause__, OSError) else BAD_INPUT)
    except BrokenPipeError:
        return _pipe_closed()
    except OSError as err:
        return _fail(str(err), CANNOT_WRITE)
    except MemoryError:
        return _fail("out of memory (a smaller --table-mb, or fewer --workers, may fit)")
    except KeyboardInterrupt:
        return _interrupted()


def _print(text: str, notation: str = "en") -> int:
    stream = sys.stdout
    if stream is None or not text:    # a command whose work is a file, run with no standard
        return DONE                     # output, or one that wrote its page there
    try:
        stream.write(printable(text, stream, notation) + "\n")
        stream.flush()        # a closed pipe or a full disk shows up here
    except BrokenPipeError:
        return _pipe_closed()
    except (OSError, ValueError) as err:      # ValueError: written after it was closed
        _silence_stdout()
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        return _fail(f"cannot write the output: {reason}", CANNOT_WRITE)
    return DONE


def _fail(message: str, status: int = BAD_INPUT) -> int:
    # One line whatever the message quotes of the input (argparse repeats stray words as given).
    _say(f"klaverjas: error: {one_line(message)}")
    return status


def _interrupted() -> int:
    _say("klaverjas: interrupted")
    return INTERRUPTED


def _say(line: str) -> None:
    """`line` on stderr, if anyone can read it there: a closed or broken stderr leaves only
    the exit status to tell."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(printable(line, stream) + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def _pipe_closed() -> int:
    _silence_stdout()
    return PIPE_CLOSED


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit does not fail again on what is left
    in its buffer."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):    # no stdout, or not a file (under tests)
        pass

"""The `klaverjas` command's entry point: reads the command line (`parser`), runs the
subcommand (`commands`, reading its input through `inputs`) and turns every way it can fail
into one line on stderr.

Exit status: 0 done, 2 bad input or a missing/stale engine, 130 interrupted (Ctrl-C),
141 the reader of the output went away (`klaverjas ... | head`), as Unix tools do.
"""
from __future__ import annotations

import os
import sys
from typing import List, Optional

from ..errors import SolverError


def main(argv: Optional[List[str]] = None) -> int:
    try:
        # Imported here, not above: a missing or stale engine is then one line, not a traceback.
        from .commands import COMMANDS
        from .parser import UsageError, build_parser
    except ImportError as err:
        return _fail(str(err))
    except KeyboardInterrupt:
        return _interrupted()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        print(COMMANDS[args.command](args))
        sys.stdout.flush()        # a closed pipe shows up here, inside the handler below
        return 0
    except (UsageError, SolverError, OSError) as err:
        if isinstance(err, BrokenPipeError):
            return _pipe_closed()
        return _fail(str(err))
    except MemoryError:
        return _fail("out of memory (a smaller --table-mb, or fewer --workers, may fit)")
    except KeyboardInterrupt:
        return _interrupted()


def _fail(message: str) -> int:
    print(f"klaverjas: error: {message}", file=sys.stderr)
    return 2


def _interrupted() -> int:
    print("klaverjas: interrupted", file=sys.stderr)
    return 130


def _pipe_closed() -> int:
    # Nobody reads any more: point stdout at /dev/null so that the flush at exit stays quiet.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


"""MkDocs hooks: the front page is the README, and the command-line page shows every
subcommand's `--help` as the parser prints it when the site is built, so neither can drift."""
import contextlib
import io
import os
import re
from pathlib import Path
from typing import Iterator, Optional

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]

# `<!-- klaverjas --help -->` or `<!-- klaverjas solve --help -->` on a line of its own.
HELP_MARKER = re.compile(r"^<!-- klaverjas(?: ([a-z-]+))? --help -->$", re.M)

# The width of the help text on the page, whatever the terminal that builds the site.
HELP_COLUMNS = "76"


def front_page(readme: str) -> str:
    """The README as the site's index page: its links into docs/ made relative to the site."""
    return re.sub(r"\]\(docs/", "](", readme)


@contextlib.contextmanager
def _columns(width: str) -> Iterator[None]:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = width       # argparse wraps its help to this width
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def help_text(command: Optional[str] = None) -> str:
    """What `klaverjas [command] --help` prints."""
    from solver.cli.parser import COMMAND_NAMES, build_parser
    if command is not None and command not in COMMAND_NAMES:
        raise PluginError(f"docs/cli.md asks for the help of {command!r}, which is not a "
                          f"subcommand: the parser has {', '.join(COMMAND_NAMES)}")
    out = io.StringIO()
    with _columns(HELP_COLUMNS), contextlib.redirect_stdout(out):
        try:
            build_parser().parse_args(([command] if command else []) + ["--help"])
        except SystemExit:
            pass
    return out.getvalue()


def with_help(markdown: str) -> str:
    """The page with every help marker replaced by that help, as a text block."""
    def block(match: "re.Match[str]") -> str:
        command = match.group(1)
        shown = "klaverjas " + (f"{command} " if command else "") + "--help"
        return f"```text\n$ {shown}\n{help_text(command).rstrip()}\n```"
    return HELP_MARKER.sub(block, markdown)


def on_files(files, config):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "index.md", content=front_page(readme)))
    return files


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri == "cli.md":
        return with_help(markdown)
    return markdown

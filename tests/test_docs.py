"""Every Python example and every command transcript of the README and of the pages in docs/
runs as written, and the command-line page covers every subcommand of the parser."""
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from solver.cli import main
from solver.cli.parser import COMMAND_NAMES

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def page_name(path):
    return path.relative_to(ROOT).as_posix()


def fenced_blocks(text):
    """(language, text) of every ``` block, in order."""
    blocks, current, language = [], None, ""
    for line in text.split("\n"):
        if line.startswith("```"):
            if current is None:
                current, language = [], line[3:].strip()
            else:
                blocks.append((language, "\n".join(current) + "\n"))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def python_blocks(text):
    return [block for language, block in fenced_blocks(text) if language == "python"]


def transcripts(text):
    """(command, expected output lines) for every `$ klaverjas ...` in a ``` block."""
    found = []
    for _, block in fenced_blocks(text):
        if not block.startswith("$ klaverjas "):
            continue
        for part in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = part.partition("\n")
            found.append((command, output.rstrip("\n").split("\n")))
    return found


def matches(expected, actual):
    """Whether the output lines match: a line `...` stands for any lines (none included),
    and `...` inside a line for any text, such as a node count."""
    if not expected:
        return not actual
    first, rest = expected[0], expected[1:]
    if first == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    pattern = ".*".join(re.escape(piece) for piece in first.split("..."))
    return bool(actual) and re.fullmatch(pattern, actual[0]) is not None and \
        matches(rest, actual[1:])


BLOCKS = [(page_name(path), i, code) for path in PAGES
          for i, code in enumerate(python_blocks(path.read_text(encoding="utf-8")))]
TRANSCRIPTS = [(page_name(path), command, expected) for path in PAGES
               for command, expected in transcripts(path.read_text(encoding="utf-8"))]


# The modules a page's examples need beyond the test extra's (the `bots` extra, which has no
# OpenSpiel wheel on some platforms): where one is missing, the page's examples are skipped.
PAGE_NEEDS = {"docs/guides/bots-environments.md": ("pyspiel", "pettingzoo")}


@pytest.mark.parametrize("page, index, code", BLOCKS,
                         ids=[f"{page}:{index}" for page, index, _ in BLOCKS])
def test_python_example_runs(page, index, code, monkeypatch, capsys):
    for module in PAGE_NEEDS.get(page, ()):
        pytest.importorskip(module)
    monkeypatch.chdir(ROOT)
    exec(compile(code, f"{page}, block {index}", "exec"), {})


@pytest.mark.parametrize("page, command, expected", TRANSCRIPTS,
                         ids=[f"{page}:{command.split()[1]}{i}"
                              for i, (page, command, _) in enumerate(TRANSCRIPTS)])
def test_command_prints_what_the_page_shows(page, command, expected, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "klaverjas"
    assert main(argv[1:]) == 0
    # Trailing spaces are invisible on a page: they are not compared.
    actual = [line.rstrip() for line in capsys.readouterr().out.rstrip("\n").split("\n")]
    assert matches(expected, actual), "\n".join(["expected:"] + expected + ["got:"] + actual)


def test_the_pages_have_examples_and_transcripts_of_the_main_subcommands():
    assert {"solve", "table", "analyse", "bid"} <= {command.split()[1] for _, command, _ in TRANSCRIPTS}
    pages_with_examples = {page for page, _, _ in BLOCKS}
    assert {"README.md", "docs/getting-started.md", "docs/guides/solve.md"} <= pages_with_examples


def test_a_wildcard_line_stands_for_any_lines_and_an_inline_one_for_any_text():
    assert matches(["a", "...", "d (... nodes)"], ["a", "b", "c", "d (12 nodes)"])
    assert matches(["...", "b"], ["b"])
    assert not matches(["a", "c"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])


def test_only_fenced_python_blocks_run():
    text = "```python\nx = 1\n```\n\n```bash\nls\n```\n\n```json\n{}\n```\n"
    assert python_blocks(text) == ["x = 1\n"]


# -- the site's build hooks ---------------------------------------------------------------------

def site_hooks():
    pytest.importorskip("mkdocs", reason='the site hooks need mkdocs: pip install -e ".[docs]"')
    spec = importlib.util.spec_from_file_location("site_hooks", ROOT / "docs" / "hooks" / "site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_line_page_has_a_section_with_the_help_of_every_subcommand():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in COMMAND_NAMES:
        assert f"\n### {name}\n" in page, name
        assert f"<!-- klaverjas {name} --help -->" in page, name


def test_the_command_line_page_is_built_with_the_help_the_parser_prints(capsys):
    hooks = site_hooks()
    built = hooks.with_help((ROOT / "docs" / "cli.md").read_text(encoding="utf-8"))
    assert "<!-- klaverjas" not in built
    for name in COMMAND_NAMES:
        assert f"$ klaverjas {name} --help\nusage: klaverjas {name} " in built, name
    assert "--table-mb" in built and "--deals-per-shard" in built


def test_a_help_marker_naming_no_subcommand_stops_the_build():
    hooks = site_hooks()
    with pytest.raises(Exception, match="'solv'.*not a subcommand"):
        hooks.with_help("<!-- klaverjas solv --help -->")


def test_the_front_page_is_the_readme_with_its_links_into_docs_made_relative():
    hooks = site_hooks()
    front = hooks.front_page((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "](docs/" not in front
    for target in re.findall(r"\]\(([^)#]+)", front):
        if "://" not in target:
            assert (ROOT / "docs" / target).exists(), target

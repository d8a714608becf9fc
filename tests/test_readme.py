"""Every Python example and every command transcript in the README runs as written."""
import re
import shlex
from pathlib import Path

import pytest

from solver.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(code, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})


def fenced_blocks(text):
    """The text of every ``` block, in order, whatever its language."""
    blocks, current = [], None
    for line in text.split("\n"):
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def transcripts(text):
    """(command, expected output lines) for every `$ klaverjas ...` in a ``` block."""
    found = []
    for block in fenced_blocks(text):
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


TRANSCRIPTS = transcripts(README)


def test_the_readme_has_command_transcripts():
    assert {"solve", "table", "analyse", "bid"} <= {command.split()[1] for command, _ in TRANSCRIPTS}


@pytest.mark.parametrize("command, expected", TRANSCRIPTS,
                         ids=[command.split()[1] + str(i) for i, (command, _) in enumerate(TRANSCRIPTS)])
def test_readme_command_prints_what_the_readme_shows(command, expected, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "klaverjas"
    assert main(argv[1:]) == 0
    # Trailing spaces are invisible in the README: they are not compared.
    actual = [line.rstrip() for line in capsys.readouterr().out.rstrip("\n").split("\n")]
    assert matches(expected, actual), "\n".join(["expected:"] + expected + ["got:"] + actual)


def test_a_wildcard_line_stands_for_any_lines_and_an_inline_one_for_any_text():
    assert matches(["a", "...", "d (... nodes)"], ["a", "b", "c", "d (12 nodes)"])
    assert matches(["...", "b"], ["b"])
    assert not matches(["a", "c"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])

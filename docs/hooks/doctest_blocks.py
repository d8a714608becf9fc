"""A griffe extension for the API reference: a docstring's examples (`>>> ...` up to the next
blank line) become Python console blocks, which Markdown would otherwise read as quotes."""
import re
from typing import Any, List

import griffe

PROMPT = re.compile(r"^(\s*)>>> ")


def fence_examples(text: str) -> str:
    """The docstring with each run of `>>>` lines and their output inside a ```pycon fence."""
    out: List[str] = []
    in_fence = in_example = False
    indent = ""
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if in_example and not line.strip():
            out.append(indent + "```")
            in_example = False
        prompt = PROMPT.match(line)
        if prompt and not in_fence and not in_example:
            indent = prompt.group(1)
            out.append(indent + "```pycon")
            in_example = True
        out.append(line)
    if in_example:
        out.append(indent + "```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_examples(obj.docstring.value)

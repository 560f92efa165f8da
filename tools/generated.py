"""The frame the table and map generators under tools/ share: write the files they generate, or
with --check say what no longer holds (the generator's own checks, and any written file that is
not what the generator writes) and exit 1 if anything."""

import sys


def stale(outputs, tool):
    """The written files of `outputs` (path -> text) that differ from what `tool` writes."""
    return [f"{path} is not what the generator writes (run python3 {tool})"
            for path, text in outputs.items() if not path.exists() or path.read_text() != text]


def main(outputs, checks, tool):
    """Writes `outputs()` (path -> text); with --check prints `checks()` (a list of problems) and
    the stale files instead, and exits 1 if there is any."""
    if "--check" in sys.argv[1:]:
        problems = checks() + stale(outputs(), tool)
        for p in problems:
            print(p)
        sys.exit(1 if problems else 0)
    for path, text in outputs().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

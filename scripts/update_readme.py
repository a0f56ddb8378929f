"""Rewrite the output of every `$ baccarat ...` example in the console blocks of README.md and of
the docs (docs/**/*.md) by running it.

Run: python scripts/update_readme.py    (tests/test_readme.py fails when a page is stale)
"""

import os
import re
import shlex
import shutil
from pathlib import Path

from click.testing import CliRunner

from analyzer.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README] + sorted((ROOT / "docs").rglob("*.md"))


def run(command: str) -> str:
    result = CliRunner().invoke(cli, shlex.split(command)[1:])
    assert result.exit_code == 0, (command, result.output)
    return result.output


def fill(block: re.Match) -> str:
    chunks = [c for c in re.split(r"^(?=\$ )", block.group(1), flags=re.M) if c.strip()]
    commands = [c.partition("\n")[0] for c in chunks]
    return "```console\n" + "\n".join(f"{c}\n{run(c[2:])}" for c in commands) + "```"


if __name__ == "__main__":
    os.chdir(README.parent)
    before = set(os.listdir())
    try:
        for page in PAGES:
            page.write_text(re.sub(r"```console\n(.*?)```", fill, page.read_text(), flags=re.S))
    finally:
        for name in set(os.listdir()) - before:  # what the examples wrote (a report folder)
            shutil.rmtree(name)

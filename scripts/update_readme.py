"""Rewrite the output of every `$ baccarat ...` example in README.md's console blocks by running it.

Run: python scripts/update_readme.py    (tests/test_readme.py fails when the README is stale)
"""

import os
import re
import shlex
import shutil
from pathlib import Path

from click.testing import CliRunner

from analyzer.cli import cli

README = Path(__file__).resolve().parent.parent / "README.md"


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
        README.write_text(re.sub(r"```console\n(.*?)```", fill, README.read_text(), flags=re.S))
    finally:
        for name in set(os.listdir()) - before:  # what the examples wrote (a report folder)
            shutil.rmtree(name)

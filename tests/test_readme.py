"""The README's examples are real: each `$ baccarat ...` block prints exactly what follows it, every
command is documented there, and .ci/run runs the README's set-up and test command."""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def console_examples():
    """(command line, expected output) of each `$ baccarat` line in the README's console blocks."""
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.M):
            if chunk.strip():
                command, _, output = chunk.partition("\n")
                yield command[2:], output.rstrip("\n")


@pytest.mark.parametrize("command, expected", list(console_examples()))
def test_readme_example_output(command, expected, monkeypatch, tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # examples read files of the repository
    monkeypatch.chdir(tmp_path)  # and write folders (report -o) where they may
    args = shlex.split(command)
    assert args[0] == "baccarat"
    result = CliRunner().invoke(cli, args[1:])
    assert result.exit_code == 0
    assert result.output.rstrip("\n") == expected


def test_every_command_is_documented():
    examples = [c for c, _ in console_examples()]
    for name in cli.commands:
        assert any(c.startswith(f"baccarat {name}") for c in examples), name


def test_ci_runs_the_readme_commands():
    setup = re.search(r"```bash\n(.*?)```", README, re.S).group(1).splitlines()
    assert "baccarat edge" in setup[0] and "pytest" in setup[1]
    assert setup[1] in (ROOT / ".ci" / "run").read_text()


def test_every_outcome_field_is_documented_with_its_example():
    from analyzer.conditions import EXAMPLES, FIELDS

    assert set(EXAMPLES) == set(FIELDS)
    for name, example in EXAMPLES.items():
        assert f"| `{name}` | {FIELDS[name][0]} |" in README and f"`{example}`" in README, name

"""The README's and the docs' examples are real: each `$ baccarat ...` block prints exactly what
follows it, every command is shown in them, and .ci/run runs the README's set-up and test command
and builds the docs with warnings as errors. (Their Python examples run as doctests: pytest's
--doctest-glob takes every Markdown file.)"""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def console_examples():
    """(page, command line, expected output) of each `$ baccarat` line in the console blocks."""
    for page in PAGES:
        for block in re.findall(r"```console\n(.*?)```", page.read_text(), re.S):
            for chunk in re.split(r"^(?=\$ )", block, flags=re.M):
                if chunk.strip():
                    command, _, output = chunk.partition("\n")
                    yield str(page.relative_to(ROOT)), command[2:], output.rstrip("\n")


@pytest.mark.parametrize("page, command, expected", list(console_examples()))
def test_example_output(page, command, expected, monkeypatch, tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # examples read files of the repository
    monkeypatch.chdir(tmp_path)  # and write folders (report -o) where they may
    args = shlex.split(command)
    assert args[0] == "baccarat"
    result = CliRunner().invoke(cli, args[1:])
    assert result.exit_code == 0
    assert result.output.rstrip("\n") == expected, f"{page}: run python scripts/update_readme.py"


def test_every_command_is_shown():
    examples = [c for _, c, _ in console_examples()]
    for name in cli.commands:
        assert any(c.startswith(f"baccarat {name}") for c in examples), name


def test_ci_runs_the_readme_commands_and_builds_the_docs():
    setup = re.search(r"```bash\n(.*?)```", README, re.S).group(1).splitlines()
    assert "baccarat edge" in setup[0] and "pytest" in setup[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert setup[1] in ci and "mkdocs build --strict" in ci


def test_every_outcome_field_is_documented_with_its_example():
    from analyzer.bets.conditions import EXAMPLES, FIELDS

    reference = (ROOT / "docs" / "reference" / "rule-files.md").read_text()
    assert set(EXAMPLES) == set(FIELDS)
    for name, example in EXAMPLES.items():
        assert f"| `{name}` | {FIELDS[name][0]} |" in reference and f"`{example}`" in reference, name


def test_every_page_is_in_the_site():
    site = (ROOT / "mkdocs.yml").read_text()
    for page in PAGES[1:]:
        assert str(page.relative_to(ROOT / "docs")) in site, page

"""MkDocs hooks: the JSON API page is rendered from the server's own OpenAPI description, the
catalogue's page from the catalogue; the command-line reference shows each command's summary
whole and no click internals as defaults; the notebook's kernel is quiet."""

import inspect
import os
import re
import shutil
import tempfile
from html import escape
from pathlib import Path

from analyzer.web import openapi

IPYTHON = Path(tempfile.mkdtemp(prefix="baccarat-docs-ipython-"))


def quiet_kernel() -> None:
    """The notebook's kernel (mkdocs-jupyter runs it) logs errors only: its one warning, on every
    build, is that it talks to the builder over TCP on this machine unencrypted, which is no news
    (IPYTHONDIR: a profile of the build's own, inherited by the kernel)."""
    folder = IPYTHON / "profile_default"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ipython_kernel_config.py").write_text('c.IPKernelApp.log_level = "ERROR"\n')
    os.environ["IPYTHONDIR"] = str(IPYTHON)


quiet_kernel()


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri == "reference/api.md":
        return markdown.replace("<!-- openapi -->", openapi.markdown())
    if page.file.src_uri == "reference/catalogue.md":
        return markdown.replace("<!-- catalogue -->", catalogue())
    return markdown


def catalogue() -> str:
    """Every bet of the catalogue as a Markdown table: its id, name, house edge on a full 8-deck
    shoe and source."""
    from analyzer import Shoe, analyse, get_rules
    from analyzer.render import percent

    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    rows = ["| bet | name | house edge, 8 decks | source |", "|---|---|--:|---|"]
    for result in analyse(get_rules("catalog"), Shoe.decks(8)):
        bet = result.bet
        rows.append(f"| `{bet.id}` | {cell(bet.name)} | {percent(result.house_edge)} | {cell(bet.source or '-')} |")
    return "\n".join(rows) + "\n"


def on_page_content(html: str, page, config, files) -> str:
    if page.file.src_uri == "reference/cli.md":
        return cli_reference(html)
    return html


def on_shutdown() -> None:
    shutil.rmtree(IPYTHON, ignore_errors=True)


def summaries(group=None, path: str = "baccarat") -> dict:
    """Each command's anchor (as mkdocs-click makes it) -> its summary: the first paragraph of its
    help, whole."""
    from analyzer.cli import cli

    group = group or cli
    out = {}
    for name, command in getattr(group, "commands", {}).items():
        anchor = f"{path}-{name}".replace(" ", "-")
        out[anchor] = " ".join(inspect.cleandoc(command.help or "").split("\n\n")[0].split())
        out |= summaries(command, f"{path}-{name}")
    return out


def cli_reference(html: str) -> str:
    """The command-line reference as mkdocs-click renders it, with each command's summary whole
    (it cuts one at the end of its first line) and no default where an option has none (click
    8.3's marker for that, shown as 'Sentinel.UNSET')."""
    html = html.replace("<td><code>Sentinel.UNSET</code></td>", "<td>-</td>")
    whole = summaries()

    def summary(match: re.Match) -> str:
        text = whole.get(match.group(1))
        return match.group(0) if text is None else f'{match.group(0).split("</em>:")[0]}</em>: {escape(text, quote=False)}</li>'

    return re.sub(r'<li><em><a href="#([a-z0-9-]+)">[^<]*</a></em>: [^<]*</li>', summary, html)

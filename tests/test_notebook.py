"""The notebook of examples/ runs from top to bottom in a fresh kernel and draws its pictures."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebook's test needs the test extra: pip install '.[test]'")
nbclient = pytest.importorskip("nbclient", reason="the notebook's test needs the test extra: pip install '.[test]'")

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "baccarat.ipynb"


def test_the_notebook_runs_and_draws():
    book = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in book.cells if cell.cell_type == "code")  # kept without outputs
    nbclient.NotebookClient(book, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for cell in book.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3  # the shoe dealt, the effect of removal, the decks
    tables = [o for o in outputs if "text/html" in o.get("data", {})]
    assert any("Dragon" in t["data"]["text/html"] or "three-card 7" in t["data"]["text/html"] for t in tables)

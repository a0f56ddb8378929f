"""The report folder, written atomically: built in a hidden folder beside the destination, then
renamed into place; an existing folder is replaced only when asked, and only if it is a report
(one holding a report.json of ours)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from ..base.errors import BaccaratError
from ..base.signals import signals_held
from . import GENERATOR


def check_destination(out: str | Path, force: bool) -> Path:
    """The report folder's path, if the report may be written there: a new folder in an existing,
    writable folder - or, with ``force``, an empty folder or a report folder (one holding our
    report.json), which will be replaced. Never the current folder or one that holds it."""
    path = Path(out)
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        raise BaccaratError(f"the folder name {str(path)!r} is not UTF-8 text") from None
    try:
        parent = path.absolute().parent
        if path.name in ("", ".", "..") or Path.cwd().resolve().is_relative_to(path.resolve()):
            raise BaccaratError(f"{str(path)!r} holds the current folder; give the report a folder of its own")
        if not parent.is_dir():
            raise BaccaratError(f"cannot write {str(path)!r}: folder {str(parent)!r} does not exist")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise BaccaratError(f"cannot write {str(path)!r}: folder {str(parent)!r} is not writable")
        if path.exists() or path.is_symlink():
            check_replaceable(path, force)
    except OSError as exc:
        raise BaccaratError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    return path


def check_replaceable(path: Path, force: bool) -> None:
    """Raise unless ``force`` is given and the existing ``path`` is a folder, empty or holding a
    report and nothing else, so that replacing it loses nothing but an old report."""
    if not force:
        raise BaccaratError("{path} exists; use {force} to replace it", names=("force",), path=repr(str(path)))
    if not path.is_dir() or path.is_symlink():
        raise BaccaratError(f"{str(path)!r} is not a folder; not replacing it")
    if any(path.iterdir()) and not is_report(path):
        raise BaccaratError(f"{str(path)!r} is not a baccarat report folder (no report.json of ours); "
                            "not replacing it")
    others = [str(p.relative_to(path)) for p in sorted(path.rglob("*")) if not report_file(p.relative_to(path))]
    if others:
        raise BaccaratError(f"{str(path)!r} holds files that are not the report's ({', '.join(others[:3])}"
                            f"{', ...' if len(others) > 3 else ''}); not replacing it")


def report_file(relative: Path) -> bool:
    """Whether a path inside a report folder is one that a report writes (so ``force`` may delete it).

    >>> report_file(Path("tables/compare.csv")), report_file(Path("charts")), report_file(Path("notes.txt"))
    (True, True, False)
    """
    parts = relative.parts
    if len(parts) == 1:
        return parts[0] in ("report.md", "report.html", "report.json", "report.pdf", "report.xlsx", "tables", "charts")
    return len(parts) == 2 and (parts[0], relative.suffix) in (("tables", ".csv"), ("charts", ".svg"))


def is_report(path: Path) -> bool:
    try:
        return json.loads((path / "report.json").read_text(encoding="utf-8")).get("generator") == GENERATOR
    except (OSError, ValueError, AttributeError):
        return False


def write(contents: dict[str, bytes], out: str | Path, force: bool = False) -> Path:
    """Write the report folder atomically: into a hidden folder beside ``out``, then renamed into
    place (an existing report folder, with ``force``, is moved aside first and deleted after)."""
    path = check_destination(out, force)
    parent = path.absolute().parent
    staging = old = None
    try:
        staging = Path(tempfile.mkdtemp(prefix=".baccarat-report-", dir=parent))
        write_files(staging, contents)
        with signals_held():  # Ctrl-C or SIGTERM between the two renames would leave no report in place
            if path.exists():
                old = Path(tempfile.mkdtemp(prefix=".baccarat-old-", dir=parent))
                os.replace(path, old / "report")
            try:
                os.rename(staging, path)
            except OSError:
                if old is not None:
                    os.replace(old / "report", path)  # the old report back where it was
                raise
    except OSError as exc:
        raise BaccaratError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        with signals_held():  # a second Ctrl-C does not leave a hidden folder behind
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
            if old is not None and (path.exists() or not (old / "report").exists()):  # never the only copy
                shutil.rmtree(old, ignore_errors=True)
    return path


def write_files(folder: Path, contents: dict[str, bytes]) -> None:
    """Each file of ``contents`` in ``folder``, sub-folders made as needed; then the folder given
    the permissions a new folder gets (mkdtemp makes it private)."""
    for name, content in contents.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    folder.chmod(0o777 & ~_umask())


def _umask() -> int:
    """The process's umask (which can only be read by setting it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask

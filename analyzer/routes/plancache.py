"""Compiled plans kept on disk, so that a process does not compile again what an earlier one did.

A compilation (the polynomials of a rule set's value lines, or of card-level lines: batch.py,
cardcount.py) depends only on what it was asked (conditions, tableau, knowledge) and on the code
that compiles it. Each is kept as one file, ``.npz`` of integer and float arrays or ``.bin`` of
bytes (lean.py's plans for one shoe, read without numpy), under the user's cache directory
(``$XDG_CACHE_HOME/baccarat``, else ``~/.cache/baccarat``), named by a digest of a canonical text
of what was asked, the package's version and a digest of the package's computing modules (so a
changed module never reads a file an older one wrote).

A cache is never the reason for a wrong figure or an error, only for speed:

- a file is written whole to a temporary name, then renamed: a reader sees it whole or not at all;
- each file holds its own name and a digest of its arrays: a file that does not read (truncated,
  corrupt), or is not the one written under that name (another compilation's, put in its place),
  is a miss, and is removed;
- a directory that cannot be made or written is a miss, said nowhere;
- what is asked that has no canonical text (an object this module does not know) is never stored.

The cache holds at most MAX_BYTES: past it, the files least recently used go first. Only files
named as this module names them are read, counted, trimmed or cleared.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import os
import re
import threading
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from ..base.errors import BaccaratError

MAX_BYTES = 256 * 2**20  # the cache's size at most: the whole catalogue's compilations take about 30 MB
SUFFIX = ".npz"  # named arrays (load, store)
BYTES = ".bin"  # bytes (load_bytes, store_bytes)
NAMED = re.compile(r"[a-z]+-[0-9a-f]{40}\.(npz|bin)")  # what key() names, with a suffix
_LOCK = threading.Lock()


def directory() -> Path:
    """Where compiled plans are kept: ``$XDG_CACHE_HOME/baccarat``, else ``~/.cache/baccarat``.

    >>> directory().name
    'baccarat'
    """
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if os.path.isabs(base):
        return Path(base) / "baccarat"
    try:
        return Path.home() / ".cache" / "baccarat"
    except RuntimeError:  # no $HOME, and a user the system does not name: no cache (a miss, never an error)
        raise NoFolder("no folder for compiled plans: no home folder is known; set XDG_CACHE_HOME") from None


class NoFolder(BaccaratError, OSError):
    """No cache folder can be named: every look-up is a miss, every store does nothing, and
    `baccarat cache` says so."""


def canonical(value) -> str:
    """A text that names ``value`` the same way in every process: dataclasses by their class and
    fields, sets sorted (their iteration order varies with the hash seed), Fractions and numbers
    exactly. TypeError for anything else, so that nothing unknown is ever stored.

    >>> canonical(frozenset({"b", "a"})), canonical((1, Fraction(1, 3), None))
    ("{'a','b'}", '(1,F1/3,None)')
    """
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, Fraction):
        return f"F{value.numerator}/{value.denominator}"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(map(canonical, value)) + ")"
    if isinstance(value, (frozenset, set)):
        return "{" + ",".join(sorted(map(canonical, value))) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{canonical(k)}:{canonical(v)}" for k, v in value.items())) + "}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ",".join(f"{f.name}={canonical(getattr(value, f.name))}" for f in dataclasses.fields(value) if f.compare)
        return f"{type(value).__module__}.{type(value).__qualname__}({fields})"
    if type(value).__module__ == "numpy" and hasattr(value, "tobytes"):
        return f"A{value.dtype.str}{value.shape}{hashlib.sha256(value.tobytes()).hexdigest()}"
    raise TypeError(f"no canonical text for {type(value).__name__}")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the package's version and of the modules a compilation is made by (the floors
    base, game, bets and routes): a change to any of them names every compilation anew."""
    from .. import __version__

    package = Path(__file__).parent.parent
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(path for floor in COMPILED_BY for path in (package / floor).glob("*.py")):
        digest.update(f"{path.parent.name}/{path.name}".encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


COMPILED_BY = ("base", "game", "bets", "routes")  # the floors whose code a compiled plan depends on


def key(kind: str, *asked) -> str | None:
    """The file name (without suffix) of what ``asked`` compiles, or None where it has no
    canonical text (it is then compiled, never stored)."""
    try:
        text = canonical(asked)
    except TypeError:
        return None
    return f"{kind}-{hashlib.sha256((code_digest() + text).encode()).hexdigest()[:40]}"


def load(name: str | None) -> dict | None:
    """The arrays stored under ``name``, or None (not stored, or not readable: then removed)."""
    if name is None:
        return None
    import numpy as np

    def read(path):
        with np.load(path, allow_pickle=False) as stored:
            arrays = {k: stored[k] for k in stored.files}  # reads every member: zip checks each one's CRC
        if str(arrays.pop("_name")) != name or str(arrays.pop("_digest")) != digest(arrays):
            raise ValueError("not the file written under this name")
        return arrays
    return read_kept(name, dict, read)


def read_kept(name: str, of: type, read):
    """``read(path)`` of the file kept under ``name``, or None: not stored, or not readable (then
    removed: whatever a damaged or foreign file raises, it is a miss). A file read is marked as
    used now, the last to go when the cache is trimmed."""
    path = None
    try:
        path = path_of(name, of)
        value = read(path)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - see above
        if path is not None:
            remove(path)
        return None
    try:
        os.utime(path)
    except OSError:
        pass
    return value


def path_of(name: str, of: type = dict) -> Path:
    """The file of what is kept under ``name``: arrays (``of`` dict) or bytes."""
    return directory() / (name + (BYTES if of is bytes else SUFFIX))


def stored(name: str | None, of: type = dict) -> bool:
    """Whether something is kept under ``name`` (arrays, or bytes with ``of`` bytes; it may still
    fail to read: see load)."""
    try:
        return name is not None and path_of(name, of).is_file()
    except OSError:
        return False


def load_bytes(name: str | None) -> bytes | None:
    """The bytes stored under ``name`` by store_bytes, or None (not stored, or not readable: then
    removed). A file holds its name, a digest of its bytes, then the bytes."""
    if name is None:
        return None

    def read(path):
        own, digested, data = path.read_bytes().split(b"\n", 2)
        if own.decode() != name or digested.decode() != hashlib.sha256(data).hexdigest():
            raise ValueError("not the file written under this name")
        return data
    return read_kept(name, bytes, read)


def store_bytes(name: str | None, data: bytes) -> bool:
    """Keep ``data`` under ``name``, as store keeps arrays: whether it was kept."""
    return name is not None and write(
        name, BYTES, lambda f: f.write(b"%s\n%s\n%s" % (name.encode(), hashlib.sha256(data).hexdigest().encode(), data)))


def store(name: str | None, arrays: dict) -> None:
    """Keep ``arrays`` under ``name``: written whole, then renamed into place; nothing on any
    error (a read-only or full disk makes the cache slower, never a command fail)."""
    if name is None:
        return
    import numpy as np

    write(name, SUFFIX, lambda f: np.savez(f, **arrays, _name=np.array(name), _digest=np.array(digest(arrays))))


def write(name: str, suffix: str, writer) -> bool:
    """``writer(file)`` into a temporary file of the cache's folder, renamed to ``name`` + ``suffix``
    once whole: whether it was (nothing on an OSError or ValueError)."""
    import tempfile  # (its import, 7 ms, only where something is written)

    try:
        folder = directory()
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".writing-", suffix=suffix)
        try:
            os.chmod(temporary, 0o644)  # readable as any file the user writes (mkstemp's 0600 hid it from a shared cache)
            with os.fdopen(handle, "wb") as f:
                writer(f)
            os.replace(temporary, folder / (name + suffix))
        except BaseException:
            remove(Path(temporary))
            raise
        trim_now(folder, os.path.getsize(folder / (name + suffix)))
    except (OSError, ValueError):
        return False
    return True


def read_or_made(name: str | None, read, make):
    """``read(arrays)`` of what is kept under ``name``, or else ``make()``, kept there (its
    ``arrays()``): a file that reads but does not make sense to ``read`` (a KeyError or
    ValueError) is made again."""
    arrays = load(name)
    if arrays is not None:
        try:
            return read(arrays)
        except (KeyError, ValueError):
            pass
    made = make()
    store(name, made.arrays())
    return made


def digest(arrays: dict) -> str:
    """A digest of named arrays: names, types, shapes and contents."""
    out = hashlib.sha256()
    for name in sorted(arrays):
        array = arrays[name]
        out.update(f"{name}:{array.dtype.str}:{array.shape}:".encode())
        out.update(array.tobytes())
    return out.hexdigest()


def kept(folder: Path) -> list[Path]:
    """The files of compiled plans in ``folder`` (those named as key() names them)."""
    try:
        return [p for p in folder.iterdir() if NAMED.fullmatch(p.name) and p.is_file()]
    except OSError:
        return []


_WRITTEN = {}  # folder -> (bytes it held at its last trim, bytes this process wrote to it since)
RESCAN = 32 * 2**20  # bytes written by this process between two looks at the whole folder


def trim_now(folder: Path, size: int) -> None:
    """Trim the folder when it may be over its limit: at the first write of this process to it,
    then once this process has written RESCAN bytes since the last look, or as soon as what the
    folder held then and what was written since pass the limit. (A look at a folder of thousands
    of files costs milliseconds; at every write it would cost more than the writes.)"""
    with _LOCK:
        held, written = _WRITTEN.get(folder, (None, 0))
        written += size
        _WRITTEN[folder] = (held, written)
    if held is None or written >= RESCAN or held + written > MAX_BYTES:
        _WRITTEN[folder] = (trim(folder), 0)


def trim(folder: Path, limit: int = MAX_BYTES) -> int:
    """Remove the least recently used files until the folder holds at most ``limit`` bytes; the
    bytes it then holds."""
    with _LOCK:
        files = []
        for path in kept(folder):
            try:
                stat = path.stat()
            except OSError:
                continue
            files.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= limit:
                break
            remove(path)
            total -= size
        return total


def remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def contents() -> tuple[Path, int, int]:
    """(the cache's folder, its files, their bytes)."""
    folder = directory()
    files = kept(folder)
    size = 0
    for path in files:
        try:
            size += path.stat().st_size
        except OSError:
            pass
    return folder, len(files), size


def clear() -> tuple[Path, int, int]:
    """Remove every compiled plan kept (and any file left half-written): (folder, files, bytes)
    removed."""
    folder, files, size = contents()
    for path in kept(folder):
        remove(path)
    if folder.is_dir():
        for suffix in (SUFFIX, BYTES):
            for path in folder.glob(".writing-*" + suffix):
                remove(path)
    return folder, files, size

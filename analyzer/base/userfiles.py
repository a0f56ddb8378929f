"""The user's files, read defensively: only regular files (a device, a pipe or a folder named
where a file is expected is refused, so ``/dev/zero`` cannot be read forever), never more than a
stated size, and TOML or JSON parsed into one-line errors whatever the text holds (numbers of
thousands of digits, nesting thousands deep).
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
import tomllib

from .errors import BaccaratError

SMALL_FILE = 1 << 20  # a shoe or rule file: a few kilobytes in practice
LARGE_FILE = 64 << 20  # a list of shoes for batch (1.7 million shoes of 13 counts)
MAX_NESTING = 64  # tables or lists within each other in a TOML or JSON file


def size_text(limit: int) -> str:
    """
    >>> size_text(SMALL_FILE), size_text(LARGE_FILE)
    ('1 MiB', '64 MiB')
    """
    return f"{limit >> 20} MiB"


def read_bytes(path, what: str, limit: int = SMALL_FILE) -> bytes:
    """The bytes of the regular file ``path`` (``what`` names it in errors), at most ``limit``.
    ``-`` reads standard input, with the same limit."""
    if str(path) == "-":
        if sys.stdin is None:
            raise BaccaratError(f"no standard input to read the {what} from (it is closed)")
        return capped(getattr(sys.stdin, "buffer", sys.stdin), f"{what} (standard input)", limit)
    with os.fdopen(open_regular(path, what), "rb") as file:
        try:
            return capped(file, f"{what} {str(path)!r}", limit)
        except OSError as exc:
            raise BaccaratError(f"cannot read {what} {str(path)!r}: {exc.strerror}") from None


def standard_input(what: str):
    """Standard input's bytes, or a one-line error where it is closed."""
    if sys.stdin is None:
        raise BaccaratError(f"no standard input to read the {what} from (it is closed)")
    return getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read().encode())


def open_regular(path, what: str) -> int:
    """A descriptor of the regular file ``path``, open to read; anything else (no path, a folder,
    a FIFO, a device, a file that is not there) a one-line error naming it as ``what``."""
    if not str(path):
        raise BaccaratError(f"no {what} given (an empty path)")
    if "\0" in str(path):
        raise BaccaratError(f"cannot read {what} {str(path)!r}: a path has no NUL character")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block the open
    except OSError as exc:
        raise BaccaratError(f"cannot read {what} {str(path)!r}: {exc.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise BaccaratError(f"cannot read {what} {str(path)!r}: {kind}")
    return fd


def text_lines(path, what: str, longest: int):
    """The lines of a UTF-8 text file (``-``: standard input; a byte-order mark dropped), read one
    at a time, at most ``longest`` characters at a time (a longer line comes in pieces): memory
    bounded by a line, whatever the file's length. The file is opened at the first line asked
    for and closed after the last; standard input stays open."""
    stdin = str(path) == "-"
    binary = standard_input(what) if stdin else os.fdopen(open_regular(path, what), "rb")
    shown = f"{what} (standard input)" if stdin else f"{what} {str(path)!r}"
    text = io.TextIOWrapper(binary, encoding="utf-8-sig", newline="\n")
    try:
        while True:
            try:
                line = text.readline(longest)
            except UnicodeDecodeError:
                raise BaccaratError(f"cannot read {shown}: not UTF-8 text") from None
            except OSError as exc:
                raise BaccaratError(f"cannot read {shown}: {exc.strerror or exc}") from None
            if not line:
                return
            yield line
    finally:
        if stdin:
            text.detach()
        else:
            text.close()


def capped(file, what: str, limit: int) -> bytes:
    data = file.read(limit + 1)
    if len(data) > limit:
        raise BaccaratError(f"{what} is larger than {size_text(limit)}")
    return data


def read_text(path, what: str, limit: int = SMALL_FILE) -> str:
    """The UTF-8 text of a file (a byte-order mark is dropped), as :func:`read_bytes` reads it."""
    try:
        return read_bytes(path, what, limit).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BaccaratError(f"cannot read {what} {str(path)!r}: not UTF-8 text") from None


def nesting(text: str) -> int:
    """How deep brackets and braces nest in TOML or JSON text, outside quoted strings: a cheap
    check before a parser that recurses (a comment with a quote in it may hide brackets from the
    count; the parsers' own RecursionError is caught as well).

    >>> nesting('a = [1, {b = [2]}]'), nesting('{"x": "[[[\\\\"}'), nesting("")
    (3, 1, 0)
    """
    depth = deepest = 0
    quote = None
    escaped = False
    for token in re.findall(r"[\[\]{}\"'\\]", text):
        if quote:
            escaped, quote = (False, quote) if escaped else (token == "\\" and quote == '"', None if token == quote else quote)
        elif token in "\"'":
            quote = token
        elif token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def parse_toml(text: str, context: str, **options) -> dict:
    """TOML text as a dict, every failure a one-line BaccaratError naming ``context``."""
    check_nesting(text, context)
    try:
        return tomllib.loads(text, **options)
    except tomllib.TOMLDecodeError as exc:
        raise BaccaratError(f"{context}: not valid TOML: {exc}{inline_table_hint(text, str(exc))}") from None
    except ValueError:  # an integer beyond Python's 4,300 digits
        raise BaccaratError(f"{context}: not valid TOML: a number too long to read") from None
    except RecursionError:  # nesting that the bracket count above could not see
        raise BaccaratError(f"{context}: nested more than {MAX_NESTING} deep") from None


INLINE_HINT = ("; an inline table { ... } must fit on one line: write a long condition as a sub-table, "
               "[[bets.lines]] with label and pays, then [bets.lines.when] with one test a line")


def inline_table_hint(text: str, error: str) -> str:
    r"""How to write a condition across lines, where the error comes within an inline table that
    a line break cut (a line, up to the error, opening more braces than it closes), else ''.

    >>> inline_table_hint('a = { b = 1,\n c = 2 }', "Invalid (at line 1, column 13)")[:39]
    '; an inline table { ... } must fit on o'
    >>> inline_table_hint('a = { b = 1 } c = 2', "Invalid (at line 1, column 15)"), inline_table_hint('a = "{" # {', "x (at line 1, column 12)")
    ('', '')
    """
    where = re.search(r"at line (\d+), column (\d+)", error)
    lines = text.splitlines()
    if not where or not 1 <= int(where.group(1)) <= len(lines):
        return ""
    line = lines[int(where.group(1)) - 1]
    if int(where.group(2)) <= len(line.rstrip()):  # the error is within the line, not at its end: another slip
        return ""
    code = re.sub(r"#.*$", "", re.sub(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'', "", line))  # strings and a comment left out
    return INLINE_HINT if code.count("{") > code.count("}") else ""


def parse_json(text: str, context: str):
    """JSON text, every failure a one-line BaccaratError naming ``context``."""
    import json  # here: a command that reads no JSON does not import it

    check_nesting(text, context)
    try:
        return json.loads(text, object_pairs_hook=lambda pairs: unique_keys(pairs, context))
    except json.JSONDecodeError as exc:
        raise BaccaratError(f"{context}: not valid JSON: {exc}") from None
    except BaccaratError:
        raise
    except ValueError:
        raise BaccaratError(f"{context}: not valid JSON: a number too long to read") from None
    except RecursionError:
        raise BaccaratError(f"{context}: nested more than {MAX_NESTING} deep") from None


def unique_keys(pairs, context: str) -> dict:
    """A JSON object, refused if it names a key twice (TOML refuses that itself; JSON would keep
    the last one quietly)."""
    out = dict(pairs)
    if len(out) < len(pairs):
        twice = next(key for i, (key, _) in enumerate(pairs) if key in dict(pairs[:i]))
        raise BaccaratError(f"{context}: key {twice!r} is given twice")
    return out


def check_nesting(text: str, context: str):
    if nesting(text) > MAX_NESTING:
        raise BaccaratError(f"{context}: nested more than {MAX_NESTING} deep")


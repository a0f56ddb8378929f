"""The errors the library raises for what a user gave it. The library knows nothing of the
command line: where a message names one of the caller's inputs, it writes the input's parameter
name in braces (``{decks}``), and whoever shows the message says how its user calls that input:
a library user reads the parameter's name, the command line's user the option's flag. Such a
message is a template of the library's own words; what the user wrote goes in as a value, never
into the template, so that braces the user typed are shown as they are.

>>> error = BaccaratError("give {decks} or {shoe_file}, not both", names=("decks", "shoe_file"))
>>> str(error)
'give decks or shoe_file, not both'
>>> error.naming({"decks": "--decks", "shoe_file": "--shoe"})
'give --decks or --shoe, not both'
>>> BaccaratError("{burn} is face or none (got {got})", names=("burn",), got=repr("{burn}")).naming({"burn": "--burn"})
"--burn is face or none (got '{burn}')"
"""

from __future__ import annotations

import re


class BaccaratError(ValueError):
    """A problem with the user's input. With ``names`` (the parameters it names in braces), the
    message is a template whose other fields are ``values`` (the user's text, shown as given);
    :meth:`naming` fills it in. Without, the message is shown as it is."""

    def __init__(self, message: str, names: tuple[str, ...] = (), **values):
        super().__init__(message)
        self.names, self.values = tuple(names), values

    def naming(self, names) -> str:
        """The message, each parameter it names called ``names[name]`` (the name itself where
        ``names`` has none)."""
        message = self.args[0] if self.args else ""
        if not self.names:
            return message
        return message.format_map({name: names.get(name, name) for name in self.names} | self.values)

    def __str__(self) -> str:
        return self.naming({})


def did_you_mean(name: str, choices) -> str:
    """' (did you mean 'x'?)' for the choice ``name`` was likely meant as - the same but for case,
    spaces and hyphens, else a close spelling - or '' where none is close. The one helper for
    every name a user types (bets, rule sets, fields, counts, tables, models, formats).

    >>> did_you_mean("Dragon_7", ["dragon_7", "panda_8"]), did_you_mean("banker_totl", ["banker_total"]), did_you_mean("zz", ["a"])
    (" (did you mean 'dragon_7'?)", " (did you mean 'banker_total'?)", '')
    >>> did_you_mean("tye", ["banker", "player", "tie"]), did_you_mean("banekr", ["banker", "player", "tie"])
    (" (did you mean 'tie'?)", " (did you mean 'banker'?)")
    """
    from difflib import get_close_matches

    choices = [str(c) for c in choices]
    folded = {re.sub(r"[\s-]+", "_", c.lower()): c for c in choices}
    key = re.sub(r"[\s-]+", "_", str(name).strip().lower())
    near = [folded[key]] if key in folded else get_close_matches(key, list(folded), 2, 0.75)
    if not near:  # a short name one slip away ('tye' for 'tie'), where the ratio of a few letters says little
        near = [c for c in folded if one_slip(key, c)][:1]
    near = [folded.get(n, n) for n in near]
    return f" (did you mean {' or '.join(map(repr, near))}?)" if near else ""


def one_slip(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter changed, added, dropped, or two neighbours swapped.

    >>> one_slip("tye", "tie"), one_slip("banekr", "banker"), one_slip("jsn", "json"), one_slip("kind", "id")
    (True, True, True, False)
    """
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def unknown(what: str, name, choices, plural: str = "", most: int = 12) -> str:
    """The message for a name that is none of ``choices``: the one meant, else the choices.

    >>> unknown("rule set", "standrad", ["standard", "ez"]), unknown("format", "xls", ["json", "csv"])
    ("unknown rule set 'standrad' (did you mean 'standard'?)", "unknown format 'xls' (formats: json, csv)")
    """
    return f"unknown {what} {name!r}" + (did_you_mean(name, choices) or f" ({plural or what + 's'}: {listing(choices, most)})")


def listing(choices, most: int = 12) -> str:
    """Choices as a list for a message: all of them, or the first ``most`` and how many more.

    >>> listing(["a", "b"]), listing([str(i) for i in range(20)], 3)
    ('a, b', '0, 1, 2 and 17 more')
    """
    choices = [str(c) for c in choices]
    return ", ".join(choices) if len(choices) <= most else f"{', '.join(choices[:most])} and {len(choices) - most} more"


def expect(value, kind, what: str):
    """``value`` itself if it is a ``kind`` (a type or a tuple of types), else a BaccaratError
    saying ``what`` was expected: the library's public calls check what they are given, so that a
    wrong type is one clear error rather than an AttributeError deep inside.

    >>> expect(8, int, "decks are a whole number")
    8
    >>> expect("8", int, "decks are a whole number")
    Traceback (most recent call last):
    ...
    analyzer.base.errors.BaccaratError: decks are a whole number (got str)
    """
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise BaccaratError(f"{what} (got {type(value).__name__})")
    return value


class Unsatisfiable(BaccaratError):
    """The shoe holds no six-card sequence that agrees with what is known of the cards."""


class RunFailed(BaccaratError):
    """A run that could not finish for a reason outside the input: a worker process died, the
    Dask scheduler was lost. The message says what happened and what was lost."""


LONGEST_WORD = 80  # an error quotes at most this much of one word of the user's input
LONGEST_ERROR = 500  # and this much of the whole message


def error_line(message: str) -> str:
    """An error message on one line, each over-long word of it cut in the middle with its length
    said, and the whole cut to LONGEST_ERROR, so that an error about a 10 MB field or a
    5,000-digit number stays readable.

    >>> error_line("not a number: '" + "9" * 5000 + "'\\n(a line)")
    "not a number: '9999999999999999999999999999999999999999999999999…999999999' [5,002 characters] (a line)"
    >>> len(error_line("unknown card '" + "A " * 10**6 + "'"))
    484
    """
    def cut(match):
        word = match.group()
        return f"{word[:50]}…{word[-10:]} [{len(word):,} characters]"

    line = re.sub(rf"\S{{{LONGEST_WORD + 1},}}", cut, " ".join(message.split()))
    if len(line) > LONGEST_ERROR:
        line = f"{line[:LONGEST_ERROR - 100]}…{line[-60:]} [{len(line):,} characters]"
    return line

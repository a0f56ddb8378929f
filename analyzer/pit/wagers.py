"""Wagers as records: one wager (table, shoe, coup, seat, player, bet, amount), read from a CSV or
JSON file or from a record sent to the pit, each field checked, and an amount written back
exactly. Shared by the pit (wagers placed at a table: pit.place) and game protection
(protect.py, which reviews them); it knows nothing of either."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..base.errors import BaccaratError

MAX_WAGERS = 500_000  # wagers in one review (two days of a 20-table pit: about 1 GB of memory)
MAX_AMOUNT = 10**9  # one wager
MAX_TEXT = 80  # characters of a player, seat, table, shoe or bet name
REQUIRED = ("coup", "player", "bet", "amount")
OPTIONAL = ("table", "shoe", "seat")


@dataclass(frozen=True)
class Wager:
    """One wager as recorded; ``line`` its line in the file (a JSON file: its record, from 1)."""

    line: int
    table: str
    shoe: str
    coup: int
    seat: str
    player: str
    bet: str
    amount: Fraction
    where: str = ""  # "wager file, line 3": where an error about it points
    after: int | None = None  # a pit's wager: the table's last event when it was kept


def parse_wagers(text: str, name: str = "wager file", table: str = "", shoe: str = "") -> list[Wager]:
    """The wagers of a CSV file (a header line, then one wager a line) or a JSON list of records,
    each with ``coup``, ``player``, ``bet`` and ``amount``, and ``table``, ``shoe`` and ``seat``
    where there are several (default: ``table``, ``shoe``, no seat). A bad value is refused by
    its line, before anything is computed.

    >>> w = parse_wagers("coup,player,bet,amount\\n3,ann,tie,25\\n4,ann,player_pair,12.50\\n", shoe="1")
    >>> [(x.line, x.coup, x.player, x.bet, x.amount) for x in w]
    [(2, 3, 'ann', 'tie', Fraction(25, 1)), (3, 4, 'ann', 'player_pair', Fraction(25, 2))]
    """
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text, parse_float=Decimal, parse_constant=lambda c: c)
        except (ValueError, RecursionError) as error:
            raise BaccaratError(f"{name}: not valid JSON ({str(error)[:120]})") from None
        if not isinstance(records, list):
            raise BaccaratError(f"{name}: a JSON file of wagers is a list of records")
        rows = ((i, r) for i, r in enumerate(records, 1))
        where = lambda i: f"{name}, record {i}"  # noqa: E731
    else:
        rows = csv_rows(text, name)
        where = lambda i: f"{name}, line {i}"  # noqa: E731
    out = []
    for number, record in rows:
        if len(out) >= MAX_WAGERS:
            raise BaccaratError(f"{name}: more than {MAX_WAGERS:,} wagers (split the file)")
        out.append(wager_of(record, where(number), number, table, shoe))
    if not out:
        raise BaccaratError(f"{name}: no wager (a header line with {', '.join(REQUIRED)}, then one wager a line)")
    return out


def csv_rows(text: str, name: str):
    """(line, record) of a CSV text whose first line names the columns."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        while header is not None and not any(h.strip() for h in header):  # blank lines before the header
            header = next(reader, None)
        if header is None:
            raise BaccaratError(f"{name}: empty (a header line with {', '.join(REQUIRED)}, then one wager a line)")
        columns = [h.strip().lower() for h in header]
        missing = [c for c in REQUIRED if c not in columns]
        if missing:
            raise BaccaratError(f"{name}, line {reader.line_num}: the header has no {', '.join(missing)} column (it "
                                f"needs {', '.join(REQUIRED)}; {', '.join(OPTIONAL)} where there are several)")
        if len(set(columns)) != len(columns):
            raise BaccaratError(f"{name}, line {reader.line_num}: a column is named twice")
        for values in reader:
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(columns):
                raise BaccaratError(f"{name}, line {reader.line_num}: {len(values)} values for {len(columns)} columns")
            yield reader.line_num, dict(zip(columns, values))
    except csv.Error as error:
        raise BaccaratError(f"{name}, line {reader.line_num}: {error}") from None


def wager_of(record, where: str, number: int, table: str, shoe: str) -> Wager:
    """One wager from a record (column -> value), checked."""
    if not isinstance(record, dict):
        raise BaccaratError(f"{where}: a wager is a record with {', '.join(REQUIRED)}")
    keys = [str(k).strip().lower() for k in record]
    if len(set(keys)) != len(keys):
        raise BaccaratError(f"{where}: a field is given twice (names are read without regard to case)")
    record = dict(zip(keys, record.values()))
    missing = [c for c in REQUIRED if record.get(c) in (None, "")]
    if missing:
        raise BaccaratError(f"{where}: no {', '.join(missing)}")
    return Wager(number, name_of(record.get("table"), where, "table", table), name_of(record.get("shoe"), where, "shoe", shoe),
                 coup_of(record["coup"], where), name_of(record.get("seat"), where, "seat", ""),
                 name_of(record["player"], where, "player", ""), name_of(record["bet"], where, "bet", ""),
                 amount_of(record["amount"], where), where)


def name_of(value, where: str, column: str, default: str) -> str:
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise BaccaratError(f"{where}: {column} is a name or a number (got {str(value)[:40]!r})")
    text = str(value).strip()
    if len(text) > MAX_TEXT or not text.isprintable():
        raise BaccaratError(f"{where}: {column} is at most {MAX_TEXT} printable characters (got {text[:40]!r}...)")
    if text[:1] in ("=", "+", "@") or (text[:1] == "-" and not text[1:].isdigit()):
        raise BaccaratError(f"{where}: {column} {text[:40]!r} begins as a spreadsheet formula does (=, +, - or @): "
                            "a report's tables would run it")
    return text


def coup_of(value, where: str) -> int:
    text = str(value).strip()
    if isinstance(value, bool) or not re.fullmatch(r"[0-9]{1,4}", text) or int(text) < 1:
        raise BaccaratError(f"{where}: coup is the coup's number in its shoe, from 1 (got {text[:40]!r})")
    return int(text)


def amount_of(value, where: str) -> Fraction:
    """An amount: a positive decimal number (ASCII digits, at most 4 decimal places that are not
    0), at most MAX_AMOUNT.

    >>> amount_of("12.50", "w"), amount_of(7, "w"), amount_of("1.00000", "w")
    (Fraction(25, 2), Fraction(7, 1), Fraction(1, 1))
    """
    if isinstance(value, bool):
        raise BaccaratError(f"{where}: amount {value!r} is not a number")
    text = str(value).strip()
    if isinstance(value, Decimal) and value.is_finite() and abs(value.adjusted()) < 30:
        text = format(value, "f")  # a JSON number, exponent written out
    if not re.fullmatch(r"-?[0-9]{1,20}(\.[0-9]{1,20})?", text):
        raise BaccaratError(f"{where}: amount {text[:40]!r} is not a number (digits, a point and decimals: 25 or 12.50)")
    amount = Fraction(Decimal(text))
    if amount <= 0:
        raise BaccaratError(f"{where}: amount {text} is not positive (a wager stakes something)")
    if amount > MAX_AMOUNT:
        raise BaccaratError(f"{where}: amount {text} is more than {MAX_AMOUNT:,} (a unit slip?)")
    if (amount * 10**4).denominator != 1:
        raise BaccaratError(f"{where}: amount {text} has more than 4 decimal places")
    return amount


def amount_text(amount: Fraction) -> str:
    """An amount (at most 4 decimal places) as exact decimal text.

    >>> amount_text(Fraction(25, 2)), amount_text(Fraction(7))
    ('12.5', '7')
    """
    text = f"{amount.numerator * 10**4 // amount.denominator:05d}"
    whole, part = text[:-4].lstrip("0") or "0", text[-4:].rstrip("0")
    return whole + ("." + part if part else "")


def period(text: str | None, name: str) -> str | None:
    """A time as the store keeps it (UTC, ``2026-11-26T08:00:00Z``) from a date or a date and
    time (taken as UTC).

    >>> period("2026-11-26", "since"), period("2026-11-26T08:30", "until"), period("2026-11-26T08:00+05:00", "since")
    ('2026-11-26T00:00:00Z', '2026-11-26T08:30:00Z', '2026-11-26T03:00:00Z')
    """
    from datetime import datetime

    if text is None:
        return None
    from datetime import timezone

    try:
        moment = datetime.fromisoformat(text.strip().removesuffix("Z"))
    except ValueError:
        raise BaccaratError(f"{name}: a date or a date and time, such as 2026-11-26 or 2026-11-26T08:00 (UTC), "
                            f"not {text[:40]!r}") from None
    if not 1900 <= moment.year <= 9000:
        raise BaccaratError(f"{name}: a time between the years 1900 and 9000 (got {text[:40]!r})")
    if moment.tzinfo is not None:  # an offset given: the same moment in UTC
        moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")

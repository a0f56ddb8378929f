"""A bounded cache of the latest values: what the engine, the card-level counting, the views and
the server keep of their recent work. Its own module, without numpy, so that the views and the
server can keep things without loading the engine."""

import threading
from collections import OrderedDict


class Recent:
    """The latest values put, kept within a budget of cells (``size(value)`` each), the oldest
    dropped first: memory is bounded by what the values hold, not by how many there are. Safe to
    share between threads.

    >>> recent = Recent(10, size=len)
    >>> for key in "abc":
    ...     _ = recent.put(key, [0] * 4)
    >>> recent.get("a"), recent.get("c")
    (None, [0, 0, 0, 0])
    """

    def __init__(self, cells: int, size):
        self.budget, self.size, self.values, self.lock = cells, size, OrderedDict(), threading.Lock()
        self.sizes: dict = {}  # each value's cells when it was put: what it gives back when dropped
        self.held = 0  # their sum, kept as values come and go (not summed again at each put)

    def get(self, key):
        with self.lock:
            value = self.values.get(key)
            if value is not None:
                self.values.move_to_end(key)
            return value

    def kept(self, key, make):
        """The value kept for ``key``, or ``make()`` kept and returned where there is none."""
        value = self.get(key)
        return value if value is not None else self.put(key, make())

    def put(self, key, value):
        """Keep ``value`` (the newest, even alone over the budget) and return it."""
        with self.lock:
            if not self.values:  # emptied from outside (a test's clear): nothing is held
                self.sizes.clear()
                self.held = 0
            self.values.pop(key, None)
            self.held -= self.sizes.pop(key, 0)
            self.values[key] = value
            self.sizes[key] = self.size(value)
            self.held += self.sizes[key]
            while len(self.values) > 1 and self.held > self.budget:
                self.held -= self.sizes.pop(self.values.popitem(last=False)[0], 0)
            return value

    def clear(self):
        """Forget every value."""
        with self.lock:
            self.values.clear()
            self.sizes.clear()
            self.held = 0

"""The whole suite's setting: compiled plans kept in a cache folder of its own (plancache.py),
made empty for the run and removed after it, so that the tests compile, store and read plans as
a user's commands do, without touching the user's own cache. Subprocesses inherit it."""

import os
import shutil
import tempfile

FOLDER = tempfile.mkdtemp(prefix="baccarat-test-cache-")


def pytest_configure(config):
    os.environ["XDG_CACHE_HOME"] = FOLDER


def pytest_unconfigure(config):
    shutil.rmtree(FOLDER, ignore_errors=True)

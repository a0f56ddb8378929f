"""The whole suite's setting: compiled plans kept in a cache folder of its own (plancache.py), and
the pit's default database in a data folder of its own (store.py), both made empty for the run
and removed after it, so that the tests compile, store and read as a user's commands do, without
touching the user's own. Subprocesses inherit them."""

import os
import shutil
import tempfile

FOLDER = tempfile.mkdtemp(prefix="baccarat-test-cache-")


def pytest_configure(config):
    os.environ["XDG_CACHE_HOME"] = FOLDER
    os.environ["XDG_DATA_HOME"] = os.path.join(FOLDER, "data")


def pytest_unconfigure(config):
    shutil.rmtree(FOLDER, ignore_errors=True)

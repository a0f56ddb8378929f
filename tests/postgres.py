"""A throwaway PostgreSQL server for the tests: a cluster made in a temporary folder with the
machine's initdb and pg_ctl (Debian's package; .ci/run installs it), listening on a Unix socket
in that folder only (no TCP port), stopped and removed at the end. As root, the server runs as
the user 'postgres' (PostgreSQL refuses to run as root)."""

import glob
import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl, or None where PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


@contextmanager
def throwaway_postgres():
    """Yields a function that makes a new, empty database and returns its URL."""
    folder = binaries()
    if folder is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="baccarat-pg-"))
    as_user = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, socket = root / "data", root
    run = lambda *args: subprocess.run([*as_user, *map(str, args)], check=True, capture_output=True, timeout=120)  # noqa: E731
    try:
        run(folder / "initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
        run(folder / "pg_ctl", "-D", data, "-w", "-t", "60", "-l", root / "log", "-o",
            f"-k {socket} -c listen_addresses='' -c fsync=on", "start")
        made = []

        def database() -> str:
            name = f"pit{len(made)}"
            run(folder / "createdb", "-h", socket, "-U", "postgres", name)
            made.append(name)
            return f"postgresql://postgres@/{name}?host={socket}"

        yield database
    finally:
        subprocess.run([*as_user, str(folder / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)

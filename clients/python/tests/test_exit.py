"""The client and the interpreter's exit, in child processes: an application that records traces and just ends
still delivers them (the atexit flush), a client never keeps the interpreter alive, and with Vigil unreachable the
flush at exit gives up after shutdown_timeout."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap

from .support import ClientTest

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")

APP = textwrap.dedent("""
    import json, os, sys
    sys.path.insert(0, os.environ["SRC"])
    from vigil_llm import Vigil
    import atexit
    # Registered before the client's own handler, so it runs after it (atexit runs last-in, first-out).
    atexit.register(lambda: print(json.dumps(vigil.stats())))
    vigil = Vigil(project_key="vk_test", base_url=os.environ["URL"], flush_interval=60, retry_base=0.05, max_retries=1000,
                  shutdown_timeout=float(os.environ.get("SHUTDOWN", "5")), flush_at_exit=os.environ.get("AT_EXIT") != "0",
                  on_error=lambda e: print("error", e.code, file=sys.stderr))
    for i in range(int(os.environ["COUNT"])):
        vigil.record({"model": "gpt-4o-mini", "input": f"question {i}"})
""")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ExitTest(ClientTest):
    def run_app(self, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", APP], env={**os.environ, "SRC": SRC, **env}, capture_output=True, text=True, timeout=30)

    def test_an_application_that_just_ends_delivers_its_traces(self) -> None:
        run = self.run_app(URL=self.receiver.url, COUNT="25")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(len(self.receiver.items()), 25)
        self.assertEqual(json.loads(run.stdout)["sent"], 25)

    def test_without_the_exit_flush_the_sender_thread_does_not_hold_the_interpreter(self) -> None:
        run = self.run_app(URL=self.receiver.url, COUNT="5", AT_EXIT="0")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(self.receiver.items(), [])
        self.assertEqual(json.loads(run.stdout)["buffered"], 5)

    def test_with_vigil_unreachable_the_exit_flush_gives_up_and_counts_the_loss(self) -> None:
        run = self.run_app(URL=f"http://127.0.0.1:{free_port()}", COUNT="3", SHUTDOWN="0.3")
        self.assertEqual(run.returncode, 0, run.stderr)
        stats = json.loads(run.stdout)
        self.assertEqual((stats["sent"], stats["dropped"]), (0, 3))
        self.assertIn("VIGIL_ERR_CLIENT_NOT_DELIVERED", run.stderr)

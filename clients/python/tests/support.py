"""What the test modules share: the package on sys.path, a Receiver per test, and clients that close themselves."""

from __future__ import annotations

import time
import unittest
from typing import Any, Callable, List

from vigil_llm import Vigil, VigilClientError  # noqa: E402

from .receiver import Receiver  # noqa: E402


def wait_for(fn: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


class ClientTest(unittest.TestCase):
    def setUp(self) -> None:
        self.receiver = Receiver()
        self.errors: List[VigilClientError] = []
        self.clients: List[Vigil] = []

    def tearDown(self) -> None:
        for client in self.clients:
            client.close(timeout=1)
        self.receiver.close()

    def client(self, **options: Any) -> Vigil:
        options.setdefault("project_key", self.receiver.key)
        options.setdefault("base_url", self.receiver.url)
        options.setdefault("on_error", self.errors.append)
        client = Vigil(**options)
        self.clients.append(client)
        return client

    def codes(self) -> List[str]:
        return [e.code for e in self.errors]

"""Flushes live clients when the interpreter exits normally (``atexit``): an application that records traces and just
ends still delivers them, for at most each client's ``shutdown_timeout``. One handler serves every client, and it
holds them weakly, so a client the application dropped is not kept alive by it. ``atexit`` does not run on
``os._exit()``, on a signal Python does not handle, or when the process is killed: call ``vigil.close()`` on those
paths. It runs before daemon threads are stopped, so the sender thread is still there to send."""

from __future__ import annotations

import atexit
import threading
import weakref
from typing import Protocol


class ExitFlushable(Protocol):
    def _flush_at_exit(self) -> None: ...


_clients: "weakref.WeakSet[ExitFlushable]" = weakref.WeakSet()
_lock = threading.Lock()
_registered = False


def _on_exit() -> None:
    for client in list(_clients):
        try:
            client._flush_at_exit()
        except Exception:  # noqa: BLE001 — a client never fails the interpreter's exit
            pass


def register_exit_flush(client: ExitFlushable) -> None:
    global _registered
    with _lock:
        if not _registered:
            atexit.register(_on_exit)
            _registered = True
        _clients.add(client)


def unregister_exit_flush(client: ExitFlushable) -> None:
    with _lock:
        _clients.discard(client)

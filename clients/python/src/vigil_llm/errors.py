"""The client's error codes, ``VIGIL_ERR_CLIENT_<KEY>`` (the same codes as the Node client's, listed in
docs/errors.md). They are never raised into the application: they reach the ``on_error`` callback (by default a
``logging`` warning, once a minute per code) and the counters of ``Vigil.stats()``."""

from __future__ import annotations

from typing import Optional

CONFIG = "VIGIL_ERR_CLIENT_CONFIG"
AUTH = "VIGIL_ERR_CLIENT_AUTH"
BATCH_REFUSED = "VIGIL_ERR_CLIENT_BATCH_REFUSED"
TOO_LARGE = "VIGIL_ERR_CLIENT_TOO_LARGE"
ITEMS_REJECTED = "VIGIL_ERR_CLIENT_ITEMS_REJECTED"
RETRIES_EXHAUSTED = "VIGIL_ERR_CLIENT_RETRIES_EXHAUSTED"
BUFFER_FULL = "VIGIL_ERR_CLIENT_BUFFER_FULL"
NOT_DELIVERED = "VIGIL_ERR_CLIENT_NOT_DELIVERED"
INVALID_ITEM = "VIGIL_ERR_CLIENT_INVALID_ITEM"
CLOSED = "VIGIL_ERR_CLIENT_CLOSED"
INTERNAL = "VIGIL_ERR_CLIENT_INTERNAL"


class VigilClientError(Exception):
    """What ``on_error`` receives: a code above, a message that says what happened, and how many items it cost."""

    def __init__(self, code: str, message: str, items: int = 0, status: Optional[int] = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        #: Trace items dropped or rejected because of this error (0 when none were lost).
        self.items = items
        #: The HTTP status Vigil answered, when the error is an answer.
        self.status = status

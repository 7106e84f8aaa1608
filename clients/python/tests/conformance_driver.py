"""The Python client's conformance driver (docs/llm-wire-contract.md, "Conformance"): reads one JSON object from
stdin, ``{"items": [...], "options": {...}}``, creates a ``Vigil`` with those options against VIGIL_BASE_URL and
VIGIL_PROJECT_KEY, records every item through ``Vigil.record()``, closes the client (which flushes), and prints
``{"sent": n, "dropped": n}`` on one line."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from vigil_llm import Vigil  # noqa: E402

spec = json.load(sys.stdin)
o = spec["options"]
vigil = Vigil(
    project_key=os.environ["VIGIL_PROJECT_KEY"],
    base_url=os.environ["VIGIL_BASE_URL"],
    batch_size=o["max_batch_items"],
    max_buffer_items=o["max_buffer_items"],
    flush_interval=o["flush_interval_ms"] / 1000,
    max_retries=o["max_retries"],
    retry_base=o["retry_base_ms"] / 1000,
    timeout=o["timeout_ms"] / 1000,
    # Losses are the suite's to count, not warnings on stderr.
    on_error=lambda err: None,
)
for item in spec["items"]:
    vigil.record(item)
vigil.close()
stats = vigil.stats()
print(json.dumps({"sent": stats["sent"], "dropped": stats["dropped"]}))

"""Label values for a request from its header list (policies/extract-labels.ts)."""
from __future__ import annotations

from typing import Dict, Optional, Sequence

from .merge import RouteDecision


def extract_labels(decision: RouteDecision, raw_headers: Optional[Sequence[str]]) -> Dict[str, str]:
    """``raw_headers`` flat (name, value, name, value…); a repeated header gives its first value."""
    out: Dict[str, str] = {}
    if not decision.labels or not raw_headers:
        return out
    for name, header in decision.labels:
        for i in range(0, len(raw_headers) - 1, 2):
            h = raw_headers[i]
            if len(h) == len(header) and h.lower() == header:
                out[name] = raw_headers[i + 1]
                break
    return out

"""One trace item as the JSON text that goes into a batch, at most ``max_bytes`` bytes of UTF-8. Items are encoded
once, when recorded: the buffer then counts exact bytes, and a retried batch is sent again without encoding again.

An item over the limit is shrunk where the bulk is, in the free-form fields (input, output, metadata, the template's
variables): their strings are cut to ever shorter lengths, each cut ending with a ``…[truncated N chars]`` marker.
If that is not enough, each such field becomes ``{"truncated": true, "bytes": N, "preview": "…"}``. A template's raw
text is never cut (the server versions templates by its hash): a template too large to fit is left out instead."""

from __future__ import annotations

import json
from typing import Any, Dict, NamedTuple

from .safe_json import DEFAULT_LIMITS, to_safe_json
from .trace_item import TraceItem

PREVIEW_CHARS = 1024
STRING_CUTS = (64 * 1024, 8 * 1024, 1024, 256)
FREE_FORM = ("input", "output", "metadata")


class EncodedItem(NamedTuple):
    id: str
    #: The item's JSON, UTF-8.
    json: bytes


def _encoded(item: Dict[str, Any]) -> EncodedItem:
    # ensure_ascii=False: UTF-8 is a third the size of \\u escapes for non-Latin text; allow_nan=False: the values
    # were made finite by normalise_item, and NaN is not JSON.
    return EncodedItem(item["id"], json.dumps(item, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8"))


def _marker(value: Any) -> Dict[str, Any]:
    text = json.dumps(value, ensure_ascii=False)
    return {"truncated": True, "bytes": len(text.encode("utf-8")), "preview": text[:PREVIEW_CHARS]}


def encode_item(item: TraceItem, max_bytes: int) -> EncodedItem:
    """The item's JSON within ``max_bytes``, truncating its free-form fields as needed (see above)."""
    out = _encoded(dict(item))
    if len(out.json) <= max_bytes:
        return out
    for max_string in STRING_CUTS:
        limits = DEFAULT_LIMITS._replace(max_string=max_string)
        cut: Dict[str, Any] = dict(item)
        for key in FREE_FORM:
            if key in cut:
                cut[key] = to_safe_json(cut[key], limits)
        template = item.get("prompt_template")
        if template and "variables" in template:
            cut["prompt_template"] = {**template, "variables": to_safe_json(template["variables"], limits)}
        out = _encoded(cut)
        if len(out.json) <= max_bytes:
            return out
    replaced: Dict[str, Any] = dict(item)
    for key in ("input", "output"):
        if key in replaced:
            replaced[key] = _marker(replaced[key])
    if "metadata" in replaced:
        replaced["metadata"] = {"truncated": True, "bytes": _marker(replaced["metadata"])["bytes"]}
    template = item.get("prompt_template")
    if template and "variables" in template:
        replaced["prompt_template"] = {**template, "variables": {"truncated": True}}
    out = _encoded(replaced)
    if len(out.json) <= max_bytes or "prompt_template" not in replaced:
        return out
    del replaced["prompt_template"]
    # Whatever is still over (an enormous name or tag list) goes as is: a 413 then drops this one item and says so.
    return _encoded(replaced)

"""The trace item of ``POST /v1/traces``, one element of ``{"traces": [...]}``.

Generated from traceItemSchema (plugins/llm/item-schema.ts) by tests/unit/llm-client/trace-item-python.test.ts.
Do not edit: run that test to write it again."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, TypedDict

__all__ = ["TraceTokens", "PromptTemplateRef", "TraceItem"]


class _TraceItemRequired(TypedDict):
    model: str  # minLength 1, maxLength 256


class TraceTokens(TypedDict, total=False):
    input: int  # minimum 0, maximum 1000000000
    output: int  # minimum 0, maximum 1000000000
    cache_read: int  # minimum 0, maximum 1000000000
    total: int  # minimum 0, maximum 1000000000


class _PromptTemplateRefRequired(TypedDict):
    name: str  # minLength 1, maxLength 256
    raw: str  # maxLength 262144


class PromptTemplateRef(_PromptTemplateRefRequired, total=False):
    variables: Dict[str, Any]


class TraceItem(_TraceItemRequired, total=False):
    id: str  # format uuid
    name: str  # maxLength 512
    provider: str  # maxLength 128
    status: Literal["ok", "error"]
    error: str  # maxLength 16384
    start_time: str  # format date-time
    latency_ms: float  # minimum 0, maximum 86400000
    tokens: TraceTokens
    cost_usd: float  # minimum 0, maximum 1000000
    input: Any
    output: Any
    prompt_template: PromptTemplateRef
    user_id: str  # maxLength 256
    session_id: str  # maxLength 256
    tags: List[str]  # maxItems 64, each: minLength 1, maxLength 128
    metadata: Dict[str, Any]

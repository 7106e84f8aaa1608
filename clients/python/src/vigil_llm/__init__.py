"""vigil_llm: send LLM call traces to Vigil. See README.md for usage, options and guarantees.

    from vigil_llm import Vigil
    vigil = Vigil(project_key="vk_…", base_url="http://127.0.0.1:9095")
    openai = vigil.wrap_openai(OpenAI())
"""

from ._version import __version__
from .client import Vigil, default_client
from .errors import VigilClientError
from .trace_item import PromptTemplateRef, TraceItem, TraceTokens
from .trace_scope import Trace, current_trace
from .wrap_openai import wrap_openai

__all__ = [
    "Vigil",
    "Trace",
    "TraceItem",
    "TraceTokens",
    "PromptTemplateRef",
    "VigilClientError",
    "current_trace",
    "default_client",
    "wrap_openai",
    "__version__",
]

"""Vigil's API governance inside a FastAPI (or any ASGI) app: the gateway's rules, decisions and records, governed
in the app's process; only governed records are sent to the Vigil agent."""
from ._version import __version__
from .errors import VigilConfigError, VigilMiddlewareError, VigilOptionsError
from .middleware import VigilMiddleware

__all__ = ['VigilMiddleware', 'VigilConfigError', 'VigilOptionsError', 'VigilMiddlewareError', '__version__']

"""The errors the middleware raises when it is created, never later (codes as middleware/core/errors.ts names them)."""
from __future__ import annotations


class VigilMiddlewareError(Exception):
    """Base of the middleware's errors; ``code`` is the error code Vigil documents in docs/errors.md."""
    code = 'VIGIL_ERR_MIDDLEWARE'


class VigilConfigError(VigilMiddlewareError):
    """The config file cannot be read, or `vigil validate` would refuse it: the message gives file:line:column and the key path."""
    code = 'VIGIL_ERR_MIDDLEWARE_CONFIG'


class VigilOptionsError(VigilMiddlewareError, ValueError):
    """An option is missing or malformed: config_path, agent_url, the token, or a bound that is not a positive number."""
    code = 'VIGIL_ERR_MIDDLEWARE_OPTIONS'

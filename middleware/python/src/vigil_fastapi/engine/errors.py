"""Errors of the policy language, as policies/errors.ts names them."""
from __future__ import annotations

import re
from typing import Sequence, Tuple, Union

from .js_json import stringify

KeyPath = Tuple[Union[str, int], ...]
_PLAIN_KEY = re.compile(r'[A-Za-z_][A-Za-z0-9_-]*\Z')


def format_key_path(path: Sequence[Union[str, int]]) -> str:
    """``('rules', 2, 'redact')`` → ``rules[2].redact`` (runtime/config/key-path.ts)."""
    out = ''
    for segment in path:
        if isinstance(segment, int):
            out += '[%d]' % segment
        elif _PLAIN_KEY.match(segment):
            out += segment if out == '' else '.' + segment
        else:
            out += '[%s]' % stringify(segment)
    return out


class PolicyError(ValueError):
    """A policy that cannot be compiled. ``path`` is the key path inside the policy, e.g. ``('rules', 2, 'match',
    'path')``; ``where`` the same as text, ``rules[2].match.path``."""

    def __init__(self, code: str, path: KeyPath, detail: str) -> None:
        self.where = format_key_path(path)
        super().__init__('%s: %s' % (self.where, detail))
        self.code = 'VIGIL_ERR_POLICY_' + code
        self.path = tuple(path)
        self.detail = detail

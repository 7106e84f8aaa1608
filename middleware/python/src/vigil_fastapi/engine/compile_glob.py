"""A rule's ``match.path`` glob, folded like a request path (policies/compile-glob.ts)."""
from __future__ import annotations

import re
from typing import Pattern

from .errors import KeyPath, PolicyError
from .fold_path import fold_path
from .js_json import js_string

_QUERY_OR_FRAGMENT = re.compile(r'[?#]')


class PathMatcher:
    __slots__ = ('glob', 'regex')

    def __init__(self, glob: str, regex: 'Pattern[str]') -> None:
        self.glob = glob
        self.regex = regex

    def test(self, folded_path: str) -> bool:
        # The root path is "no segments": tested as the empty string so `/**` and `/` both match it.
        return self.regex.match('' if folded_path == '/' else folded_path) is not None


def compile_glob(glob: str, where: KeyPath = ('match', 'path')) -> PathMatcher:
    if not isinstance(glob, str) or not glob.startswith('/'):
        raise PolicyError('GLOB', where, '%s must start with "/"' % _quoted(glob))
    if _QUERY_OR_FRAGMENT.search(glob):
        raise PolicyError('GLOB', where, '%s contains "?" or "#": paths are matched without their query, so remove that part '
                          '(use redact.query_params for query parameters)' % js_string(glob))
    folded = fold_path(glob)
    if folded is None:
        raise PolicyError('GLOB', where, '%s does not fold to one path: it is percent-encoded in more layers than the fold '
                          'decodes, or too long to fold; write it decoded, and shorter' % js_string(glob))
    segments = [s for s in folded.split('/')[1:] if s != '']
    source = ''
    for segment in segments:
        if segment == '**':
            source += '(?:/[^/]+)*'
            continue
        if '**' in segment:
            raise PolicyError('GLOB', where, '%s: "**" must be a whole segment (write "/a/**/b", or "*" to match within a '
                              'segment)' % js_string(glob))
        source += '/[^/]+' if segment == '*' else '/' + '[^/]*'.join(re.escape(p) for p in segment.split('*'))
    return PathMatcher(glob, re.compile(source + r'\Z', re.DOTALL))


def _quoted(value: object) -> str:
    return js_string(value) if isinstance(value, str) else repr(value)

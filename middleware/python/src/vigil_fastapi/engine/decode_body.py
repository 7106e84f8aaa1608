"""A captured body made readable, or the reason it cannot be stored (gateway/govern/decode-body.ts). Fails closed:
where `json_fields` apply, anything short of a complete, valid JSON document is dropped with its reason."""
from __future__ import annotations

import codecs
import re
import zlib
from typing import NamedTuple, Optional, Sequence, Union

from . import brotli
from .compile_json_path import CompiledJsonPath
from .header_record import header_values
from .json_text import MAX_JSON_DEPTH, govern_json_text

DEFAULT_MAX_DECODED_BYTES = 8 * 1024 * 1024

JSON_REQUIRED = ' where json_fields redaction applies'
INCOMPLETE = 'incomplete: cut short on the wire'

_BINARY_TYPE = re.compile(r'^(?:image|audio|video|font)/|^application/(?:octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z-compressed'
                          r'|x-protobuf|protobuf|vnd\.google\.protobuf|grpc(?:\+[a-z]+)?|msgpack|x-msgpack|cbor|wasm)\Z')
_JSON_TYPE = re.compile(r'^application/(?:json|[a-z0-9.+-]+\+json)\Z|^text/json\Z')
_CHARSET = re.compile(r';[\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*charset'
                      r'[\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*='
                      r'[\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*"?'
                      r'([^";\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+)"?', re.I | re.ASCII)
_JS_SPACE = '\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'

# WHATWG encoding labels (TextDecoder) for the charsets Python names differently; the rest go by Python's name.
_LABELS = {
    'latin1': 'cp1252', 'iso-8859-1': 'cp1252', 'iso8859-1': 'cp1252', 'l1': 'cp1252', 'ascii': 'cp1252',
    'us-ascii': 'cp1252', 'windows-1252': 'cp1252', 'cp1252': 'cp1252', 'iso_8859-1': 'cp1252', 'x-cp1252': 'cp1252',
    'unicode-1-1-utf-8': 'utf-8', 'utf-16': 'utf-16-le', 'utf-16le': 'utf-16-le', 'utf-16be': 'utf-16-be',
}


class DecodedBody(NamedTuple):
    kind: str  # 'empty' | 'json' | 'text' | 'dropped'
    text: str = ''  # the JSON text (json) or the text (text)
    number: Optional[float] = None
    reason: str = ''


EMPTY = DecodedBody('empty')


def _dropped(reason: str) -> DecodedBody:
    return DecodedBody('dropped', reason=reason)


def decode_body(data: Optional[bytes], raw_headers: Optional[Sequence[str]], truncated: bool, *, json_required: bool,
                max_decoded_bytes: int = DEFAULT_MAX_DECODED_BYTES, redact: Sequence[CompiledJsonPath] = (),
                read: Optional[CompiledJsonPath] = None, incomplete: bool = False) -> DecodedBody:
    if not data:
        return EMPTY
    suffix = JSON_REQUIRED if json_required else ''
    cut = INCOMPLETE if incomplete else 'truncated at capture limit'
    if truncated and json_required:
        return _dropped(cut + JSON_REQUIRED)
    content_type = (header_values(raw_headers, 'content-type') or [''])[0]
    media_type = content_type.split(';')[0].strip(_JS_SPACE).lower()
    if raw_headers is not None:
        encodings = [e.strip(_JS_SPACE).lower() for e in ','.join(header_values(raw_headers, 'content-encoding')).split(',')]
        encodings = [e for e in encodings if e != '' and e != 'identity']
    else:
        encodings = ['gzip'] if data[:2] == b'\x1f\x8b' else []
    if encodings:
        if truncated:
            return _dropped('%s, and a %s-encoded body cannot be decoded in part' % (cut, ', '.join(encodings)))
        decoded = _decompress(data, encodings, max_decoded_bytes)
        if isinstance(decoded, str):
            return _dropped(decoded + suffix)
        data = decoded
    if _BINARY_TYPE.search(media_type):
        return _dropped('binary content (%s) is not stored' % media_type)
    charset = _charset_of(content_type)
    text = _decode_text(data, charset, truncated)
    if text is None:
        return _dropped('invalid %s text%s' % (charset or 'UTF-8', suffix))
    declared_json = _JSON_TYPE.search(media_type) is not None
    if not declared_json and not json_required and '\0' in text:
        return _dropped('binary content (%s) is not stored' % (media_type or 'no content-type'))
    if not truncated and (declared_json or json_required or (media_type == '' and text.lstrip(_JS_SPACE)[:1] in ('{', '['))):
        result = govern_json_text(text, redact, read)
        if result.ok:
            return DecodedBody('json', result.text, result.number)
        if json_required:
            if result.reason == 'too-deep':
                return _dropped('JSON nested deeper than %d levels%s' % (MAX_JSON_DEPTH, suffix))
            return _dropped('malformed JSON%s' % suffix if declared_json else 'non-JSON content (%s)%s' % (media_type or 'no content-type', suffix))
    return DecodedBody('text', text)


def _charset_of(content_type: str) -> Optional[str]:
    m = _CHARSET.search(content_type)
    cs = m.group(1).lower() if m else None
    return None if cs is None or cs in ('utf-8', 'utf8', 'us-ascii') else cs


def _decode_text(data: bytes, charset: Optional[str], truncated: bool) -> Optional[str]:
    name = 'utf-8-sig' if charset is None else _LABELS.get(charset, charset)
    if name == 'utf-8':
        name = 'utf-8-sig'
    try:
        decoder = codecs.getincrementaldecoder(name)('strict')
    except LookupError:
        return None
    try:
        return decoder.decode(data, final=not truncated)
    except (UnicodeDecodeError, ValueError):
        return None


class _Failed(Exception):
    pass


def _zlib_message(err: zlib.error) -> str:
    text = str(err)
    colon = text.find(': ')
    return text[colon + 2:] if text.startswith('Error ') and colon != -1 else text


def _inflate(data: bytes, wbits: int, max_length: int, members: bool) -> bytes:
    out = bytearray()
    rest = data
    while True:
        d = zlib.decompressobj(wbits)
        try:
            out += d.decompress(rest, max_length + 1 - len(out))
            if len(out) > max_length:
                raise brotli.TooLarge()
            if d.unconsumed_tail:
                raise brotli.TooLarge()
            out += d.flush()
        except zlib.error as err:
            raise _Failed(_zlib_message(err)) from None
        if len(out) > max_length:
            raise brotli.TooLarge()
        if not d.eof:
            raise _Failed('unexpected end of file')
        rest = d.unused_data
        # gunzip reads a following member as Node does (and fails on what is no member).
        if not members or not rest:
            return bytes(out)


def _decompress(data: bytes, encodings: Sequence[str], max_length: int) -> Union[bytes, str]:
    for encoding in reversed(encodings):
        try:
            if encoding in ('gzip', 'x-gzip'):
                data = _inflate(data, 31, max_length, True)
            elif encoding == 'br':
                if not brotli.available():
                    return 'unsupported content-encoding br'
                try:
                    data = brotli.decompress(data, max_length)
                except brotli.BrotliError as err:
                    raise _Failed(str(err)) from None
            elif encoding == 'deflate':
                try:
                    data = _inflate(data, 15, max_length, False)
                except _Failed:
                    data = _inflate(data, -15, max_length, False)
            else:
                return 'unsupported content-encoding %s' % encoding
        except brotli.TooLarge:
            return 'decoded body exceeds %d bytes' % max_length
        except _Failed as err:
            return 'undecodable %s content (%s)' % (encoding, err)
    return data

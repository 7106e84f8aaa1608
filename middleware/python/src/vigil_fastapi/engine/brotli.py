"""Brotli decoding through the system's libbrotlidec (ctypes): the standard library has none, and Node's zlib does."""
from __future__ import annotations

import ctypes
import ctypes.util
from typing import Optional

_lib: Optional[ctypes.CDLL] = None
_loaded = False


class BrotliError(Exception):
    pass


class TooLarge(Exception):
    pass


def _library() -> Optional[ctypes.CDLL]:
    global _lib, _loaded
    if not _loaded:
        _loaded = True
        name = ctypes.util.find_library('brotlidec') or 'libbrotlidec.so.1'
        try:
            lib = ctypes.CDLL(name)
            lib.BrotliDecoderCreateInstance.restype = ctypes.c_void_p
            lib.BrotliDecoderCreateInstance.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
            lib.BrotliDecoderDestroyInstance.argtypes = [ctypes.c_void_p]
            lib.BrotliDecoderDecompressStream.restype = ctypes.c_int
            lib.BrotliDecoderDecompressStream.argtypes = [
                ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_void_p),
                ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
            _lib = lib
        except (OSError, AttributeError):
            _lib = None
    return _lib


def available() -> bool:
    return _library() is not None


_SUCCESS, _NEEDS_MORE_INPUT, _NEEDS_MORE_OUTPUT = 1, 2, 3
_CHUNK = 64 * 1024


def decompress(data: bytes, max_length: int) -> bytes:
    """Raises BrotliError ("Decompression failed", as Node says) or TooLarge past `max_length` bytes."""
    lib = _library()
    if lib is None:
        raise BrotliError('no brotli decoder on this system')
    state = lib.BrotliDecoderCreateInstance(None, None, None)
    if not state:
        raise BrotliError('Initialization failed')
    try:
        src = ctypes.create_string_buffer(data, len(data))
        avail_in = ctypes.c_size_t(len(data))
        next_in = ctypes.c_void_p(ctypes.addressof(src))
        out = bytearray()
        buf = ctypes.create_string_buffer(_CHUNK)
        while True:
            avail_out = ctypes.c_size_t(_CHUNK)
            next_out = ctypes.c_void_p(ctypes.addressof(buf))
            result = lib.BrotliDecoderDecompressStream(state, ctypes.byref(avail_in), ctypes.byref(next_in),
                                                       ctypes.byref(avail_out), ctypes.byref(next_out), None)
            out += buf.raw[:_CHUNK - avail_out.value]
            if len(out) > max_length:
                raise TooLarge()
            if result == _SUCCESS:
                return bytes(out)
            if result == _NEEDS_MORE_OUTPUT:
                continue
            if result == _NEEDS_MORE_INPUT:
                raise BrotliError('unexpected end of file')
            raise BrotliError('Decompression failed')
    finally:
        lib.BrotliDecoderDestroyInstance(state)

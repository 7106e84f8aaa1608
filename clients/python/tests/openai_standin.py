"""A minimal stand-in for the ``openai`` package (v1 and later), used because neither Debian nor this machine has it
(``apt-cache policy python3-openai``: no candidate; PyPI is out of reach). It mirrors the shapes ``wrap_openai``
relies on, as openai-python 1.x declares them:

- ``OpenAI`` / ``AsyncOpenAI`` with resources cached on the client (``chat.completions``, ``responses``,
  ``embeddings``), each with a keyword-only ``create()`` (``async def`` on the async client);
- responses as models with attribute access, ``model_dump()`` and ``_request_id`` (openai's are pydantic models);
  ``Response.output_text`` computed from ``output``;
- ``stream=True`` answers a ``Stream`` / ``AsyncStream`` whose chunks come from ``self._iterator =
  self.__stream__()``, read by ``__iter__``/``__next__`` (``__aiter__``/``__anext__``), with ``close()``, ``response``
  and the context-manager protocol;
- errors: ``APIStatusError`` subclasses by status (``status_code``, ``request_id``, ``body``, ``code``, ``type``)
  and ``APIConnectionError``.

Like openai, it speaks HTTP with httpx (Debian's python3-httpx), to a server speaking OpenAI's protocol
(tests/support/fake-openai.ts, started by the Node test that runs these tests)."""

from __future__ import annotations

import json
import os
from functools import cached_property
from typing import Any, AsyncIterator, Dict, Iterator, Optional

import httpx


class BaseModel:
    def __init__(self, data: Dict[str, Any], request_id: Optional[str] = None) -> None:
        self._data = data
        self._request_id = request_id
        for key, value in data.items():
            setattr(self, key, _model(value))

    def __getattr__(self, name: str) -> Any:
        # A pydantic model has every declared field, None when the answer left it out (delta.content, usage, …).
        if name.startswith("_"):
            raise AttributeError(name)
        return None

    def model_dump(self, mode: str = "python", exclude_unset: bool = False) -> Dict[str, Any]:
        return json.loads(json.dumps(self._data))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._data!r})"


class Response(BaseModel):
    @property
    def output_text(self) -> str:
        return "".join(c["text"] for o in self._data.get("output") or [] if o.get("type") == "message"
                       for c in o.get("content") or [] if c.get("type") == "output_text")


def _model(value: Any) -> Any:
    if isinstance(value, dict):
        return BaseModel(value)
    if isinstance(value, list):
        return [_model(v) for v in value]
    return value


class OpenAIError(Exception):
    pass


class APIError(OpenAIError):
    def __init__(self, message: str, body: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.body = body
        err = body.get("error") if isinstance(body, dict) else None
        self.code = err.get("code") if isinstance(err, dict) else None
        self.type = err.get("type") if isinstance(err, dict) else None


class APIConnectionError(APIError):
    def __init__(self, message: str = "Connection error.") -> None:
        super().__init__(message)


class APIStatusError(APIError):
    def __init__(self, message: str, response: httpx.Response, body: Any) -> None:
        super().__init__(message, body)
        self.response = response
        self.status_code = response.status_code
        self.request_id = response.headers.get("x-request-id")


class BadRequestError(APIStatusError):
    pass


class RateLimitError(APIStatusError):
    pass


class InternalServerError(APIStatusError):
    pass


def _status_error(response: httpx.Response) -> APIStatusError:
    try:
        body = response.json()
    except ValueError:
        body = None
    message = f"Error code: {response.status_code} - {body}"
    kind = RateLimitError if response.status_code == 429 else InternalServerError if response.status_code >= 500 else BadRequestError
    return kind(message, response, body)


def _events(lines: Iterator[str]) -> Iterator[Dict[str, Any]]:
    for line in lines:
        if line.startswith("data: "):
            data = line[len("data: "):]
            if data.strip() == "[DONE]":
                return
            yield json.loads(data)


class Stream:
    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self._iterator = self.__stream__()

    def __next__(self) -> Any:
        return self._iterator.__next__()

    def __iter__(self) -> Iterator[Any]:
        for item in self._iterator:
            yield item

    def __stream__(self) -> Iterator[Any]:
        try:
            for event in _events(self.response.iter_lines()):
                yield BaseModel(event)
        except httpx.TransportError as err:
            raise APIConnectionError(str(err)) from err

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.response.close()


class AsyncStream:
    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self._iterator = self.__stream__()

    async def __anext__(self) -> Any:
        return await self._iterator.__anext__()

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for item in self._iterator:
            yield item

    async def __stream__(self) -> AsyncIterator[Any]:
        try:
            async for line in self.response.aiter_lines():
                if line.startswith("data: "):
                    data = line[len("data: "):]
                    if data.strip() == "[DONE]":
                        return
                    yield BaseModel(json.loads(data))
        except httpx.TransportError as err:
            raise APIConnectionError(str(err)) from err

    async def __aenter__(self) -> "AsyncStream":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        await self.response.aclose()


def _body(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None and not k.startswith("extra_")}


class _SyncResource:
    path = ""
    kind: type = BaseModel

    def __init__(self, client: "OpenAI") -> None:
        self._client = client

    def _create(self, body: Dict[str, Any]) -> Any:
        return self._client._post(self.path, body, self.kind)


class Completions(_SyncResource):
    path = "/chat/completions"

    def create(self, *, messages: Any, model: str, stream: bool = False, **kwargs: Any) -> Any:
        return self._create(_body({"messages": messages, "model": model, "stream": stream or None, **kwargs}))


class Chat:
    def __init__(self, client: "OpenAI") -> None:
        self._client = client

    @cached_property
    def completions(self) -> Completions:
        return Completions(self._client)


class Responses(_SyncResource):
    path = "/responses"
    kind = Response

    def create(self, *, model: str, input: Any = None, instructions: Optional[str] = None, stream: bool = False, **kwargs: Any) -> Any:
        return self._create(_body({"model": model, "input": input, "instructions": instructions, "stream": stream or None, **kwargs}))


class Embeddings(_SyncResource):
    path = "/embeddings"

    def create(self, *, input: Any, model: str, **kwargs: Any) -> Any:
        return self._create(_body({"input": input, "model": model, "encoding_format": "float", **kwargs}))


class OpenAI:
    def __init__(self, *, base_url: Optional[str] = None, api_key: Optional[str] = None, max_retries: int = 0) -> None:
        # As openai does: OPENAI_BASE_URL and OPENAI_API_KEY stand in for the arguments.
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or "sk-standin"
        self._http = httpx.Client(headers={"Authorization": f"Bearer {api_key}"}, timeout=10)

    @cached_property
    def chat(self) -> Chat:
        return Chat(self)

    @cached_property
    def responses(self) -> Responses:
        return Responses(self)

    @cached_property
    def embeddings(self) -> Embeddings:
        return Embeddings(self)

    def _post(self, path: str, body: Dict[str, Any], kind: type) -> Any:
        try:
            request = self._http.build_request("POST", self.base_url + path, json=body)
            response = self._http.send(request, stream=bool(body.get("stream")))
        except httpx.TransportError as err:
            raise APIConnectionError(str(err)) from err
        if response.status_code >= 400:
            response.read()
            raise _status_error(response)
        if body.get("stream"):
            return Stream(response)
        return kind(response.json(), response.headers.get("x-request-id"))

    def close(self) -> None:
        self._http.close()


class _AsyncResource:
    path = ""
    kind: type = BaseModel

    def __init__(self, client: "AsyncOpenAI") -> None:
        self._client = client

    async def _create(self, body: Dict[str, Any]) -> Any:
        return await self._client._post(self.path, body, self.kind)


class AsyncCompletions(_AsyncResource):
    path = "/chat/completions"

    async def create(self, *, messages: Any, model: str, stream: bool = False, **kwargs: Any) -> Any:
        return await self._create(_body({"messages": messages, "model": model, "stream": stream or None, **kwargs}))


class AsyncChat:
    def __init__(self, client: "AsyncOpenAI") -> None:
        self._client = client

    @cached_property
    def completions(self) -> AsyncCompletions:
        return AsyncCompletions(self._client)


class AsyncResponses(_AsyncResource):
    path = "/responses"
    kind = Response

    async def create(self, *, model: str, input: Any = None, instructions: Optional[str] = None, stream: bool = False, **kwargs: Any) -> Any:
        return await self._create(_body({"model": model, "input": input, "instructions": instructions, "stream": stream or None, **kwargs}))


class AsyncEmbeddings(_AsyncResource):
    path = "/embeddings"

    async def create(self, *, input: Any, model: str, **kwargs: Any) -> Any:
        return await self._create(_body({"input": input, "model": model, "encoding_format": "float", **kwargs}))


class AsyncOpenAI:
    def __init__(self, *, base_url: Optional[str] = None, api_key: Optional[str] = None, max_retries: int = 0) -> None:
        # As openai does: OPENAI_BASE_URL and OPENAI_API_KEY stand in for the arguments.
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or "sk-standin"
        self._http = httpx.AsyncClient(headers={"Authorization": f"Bearer {api_key}"}, timeout=10)

    @cached_property
    def chat(self) -> AsyncChat:
        return AsyncChat(self)

    @cached_property
    def responses(self) -> AsyncResponses:
        return AsyncResponses(self)

    @cached_property
    def embeddings(self) -> AsyncEmbeddings:
        return AsyncEmbeddings(self)

    async def _post(self, path: str, body: Dict[str, Any], kind: type) -> Any:
        try:
            request = self._http.build_request("POST", self.base_url + path, json=body)
            response = await self._http.send(request, stream=bool(body.get("stream")))
        except httpx.TransportError as err:
            raise APIConnectionError(str(err)) from err
        if response.status_code >= 400:
            await response.aread()
            raise _status_error(response)
        if body.get("stream"):
            return AsyncStream(response)
        return kind(response.json(), response.headers.get("x-request-id"))

    async def close(self) -> None:
        await self._http.aclose()

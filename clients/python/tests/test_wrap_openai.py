"""wrap_openai() on a stand-in of the openai package (openai_standin.py: openai-python 1.x's shapes, httpx underneath)
calling a server that speaks OpenAI's protocol (tests/support/fake-openai.ts; its URL in FAKE_OPENAI_URL): sync, async
and streamed chat completions, the Responses API, embeddings and errors are recorded, and what the application
receives or catches is the very object openai gave it."""

from __future__ import annotations

import asyncio
import os
import unittest
from typing import Any, Dict, List

from vigil_llm import wrap_openai

from . import openai_standin as openai
from .support import ClientTest

FAKE_URL = os.environ.get("FAKE_OPENAI_URL", "")
MODEL = "gpt-4o-mini-2024-07-18"
MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Capital of France?"}]


def messages() -> List[Dict[str, Any]]:
    return [dict(m) for m in MESSAGES]


class WrapTest(ClientTest):
    def setUp(self) -> None:
        super().setUp()
        if not FAKE_URL:
            self.fail("FAKE_OPENAI_URL is not set: run these tests through tests/integration/llm-client-python.test.ts")
        self.vigil = self.client(flush_interval=60)

    def standin(self) -> openai.OpenAI:
        client = openai.OpenAI(base_url=FAKE_URL)
        self.addCleanup(client.close)
        return client

    def traces(self) -> List[Dict[str, Any]]:
        self.assertTrue(self.vigil.flush())
        return self.receiver.items()


class SyncTest(WrapTest):
    def test_a_chat_completion_is_recorded_and_returned_unchanged(self) -> None:
        plain = self.standin().chat.completions.create(model="gpt-4o-mini", messages=messages(), temperature=0.2)
        client = self.vigil.wrap_openai(self.standin())
        sent = messages()
        reply = client.chat.completions.create(model="gpt-4o-mini", messages=sent, temperature=0.2)
        sent.append({"role": "assistant", "content": reply.choices[0].message.content})
        self.assertIsInstance(reply, openai.BaseModel)
        self.assertEqual(reply.model_dump(), plain.model_dump())
        (trace,) = self.traces()
        self.assertEqual((trace["model"], trace["provider"], trace["name"], trace["status"]), (MODEL, "openai", "openai.chat.completions", "ok"))
        self.assertEqual(trace["tokens"], {"input": 21, "output": 7, "cache_read": 5, "total": 28})
        self.assertEqual(trace["input"], MESSAGES, "the messages as they were at the call, not as the application changed them after")
        self.assertEqual(trace["output"], {"role": "assistant", "content": "Paris is the capital of France.", "refusal": None})
        self.assertEqual(trace["metadata"], {"operation": "chat.completions", "parameters": {"temperature": 0.2}, "request_id": "req_fake_200", "finish_reason": "stop"})
        self.assertGreater(trace["latency_ms"], 0)

    def test_a_stream_reaches_the_application_chunk_by_chunk_and_is_recorded_whole(self) -> None:
        client = self.vigil.wrap_openai(self.standin())
        stream = client.chat.completions.create(model="gpt-4o-mini", messages=messages(), stream=True, stream_options={"include_usage": True})
        self.assertIsInstance(stream, openai.Stream)
        chunks = [c for c in stream]
        self.assertEqual("".join(c.choices[0].delta.content or "" for c in chunks if c.choices), "Paris is the capital.")
        (trace,) = self.traces()
        self.assertEqual(trace["output"], {"role": "assistant", "content": "Paris is the capital."})
        self.assertEqual(trace["tokens"], {"input": 19, "output": 3, "cache_read": 0, "total": 22})
        self.assertTrue(trace["metadata"]["stream"])
        self.assertEqual(trace["metadata"]["request_id"], "req_fake_stream")
        self.assertGreaterEqual(trace["latency_ms"], trace["metadata"]["time_to_first_chunk_ms"])

    def test_a_stream_left_early_and_closed_is_recorded_as_left(self) -> None:
        client = self.vigil.wrap_openai(self.standin())
        with client.chat.completions.create(model="gpt-4o-mini", messages=messages(), stream=True) as stream:
            for _chunk in stream:
                break
        (trace,) = self.traces()
        self.assertTrue(trace["metadata"]["stream_left_early"])
        self.assertTrue(trace["metadata"]["usage_missing"])

    def test_an_error_reaches_the_application_unchanged_and_is_recorded(self) -> None:
        client = self.vigil.wrap_openai(self.standin())
        with self.assertRaises(openai.RateLimitError) as caught:
            client.chat.completions.create(model="error-429", messages=messages())
        self.assertEqual(caught.exception.status_code, 429)
        (trace,) = self.traces()
        self.assertEqual((trace["model"], trace["status"]), ("error-429", "error"))
        self.assertTrue(trace["error"].startswith("RateLimitError: Error code: 429"))
        self.assertEqual(trace["metadata"]["http_status"], 429)
        self.assertEqual(trace["metadata"]["error_code"], "model_not_found")

    def test_a_stream_broken_by_the_server_raises_as_before_and_is_recorded_failed(self) -> None:
        client = self.vigil.wrap_openai(self.standin())
        got: List[Any] = []
        with self.assertRaises(openai.APIConnectionError):
            for chunk in client.chat.completions.create(model="stream-break", messages=messages(), stream=True):
                got.append(chunk)
        (trace,) = self.traces()
        self.assertEqual(trace["status"], "error")
        self.assertEqual(trace["output"]["content"], "Paris is the ")
        self.assertEqual(len(got), 3)

    def test_responses_and_embeddings(self) -> None:
        client = self.vigil.wrap_openai(self.standin())
        response = client.responses.create(model="gpt-4o-mini", input="Capital of France?", instructions="Be brief.")
        self.assertEqual(response.output_text, "Paris is the capital of France.")
        vectors = client.embeddings.create(model="text-embedding-3-small", input=["a", "b"])
        self.assertEqual(len(vectors.data), 2)
        answer, embedding = self.traces()
        self.assertEqual(answer["name"], "openai.responses")
        self.assertEqual(answer["input"], {"instructions": "Be brief.", "input": "Capital of France?"})
        self.assertEqual(answer["output"], "Paris is the capital of France.")
        self.assertEqual(answer["tokens"], {"input": 12, "output": 6, "cache_read": 4, "total": 18})
        self.assertEqual(embedding["model"], "text-embedding-3-small")
        self.assertEqual(embedding["output"], {"embeddings": 2, "dimensions": 3})
        self.assertEqual(embedding["tokens"], {"input": 4, "total": 4})

    def test_a_streamed_responses_call_is_recorded_from_its_completed_event(self) -> None:
        client = self.vigil.wrap_openai(self.standin())
        events = [e.type for e in client.responses.create(model="gpt-4o-mini", input="Capital of France?", stream=True)]
        self.assertEqual(events[0], "response.created")
        self.assertEqual(events[-1], "response.completed")
        (trace,) = self.traces()
        self.assertEqual((trace["name"], trace["output"], trace["metadata"]["response_status"]), ("openai.responses", "Paris is the capital.", "completed"))
        self.assertEqual(trace["tokens"], {"input": 12, "output": 6, "cache_read": 4, "total": 18})
        self.assertTrue(trace["metadata"]["stream"])

    def test_scopes_name_calls_wrapping_twice_records_once_and_capture_content_false_keeps_no_text(self) -> None:
        client = wrap_openai(self.vigil.wrap_openai(self.standin()), self.vigil)
        quiet = self.client(flush_interval=60, capture_content=False)
        other = quiet.wrap_openai(self.standin())
        with self.vigil.trace("faq", user_id="u7", prompt_template={"name": "faq", "raw": "Answer: {q}"}):
            client.chat.completions.create(model="gpt-4o-mini", messages=messages())
        other.chat.completions.create(model="gpt-4o-mini", messages=messages())
        self.assertTrue(quiet.flush())
        private, named = sorted(self.traces(), key=lambda t: "user_id" in t)
        self.assertEqual((named["name"], named["user_id"], named["prompt_template"]["name"]), ("faq", "u7", "faq"))
        self.assertNotIn("input", private)
        self.assertNotIn("output", private)
        self.assertEqual(private["tokens"]["total"], 28)


class AsyncTest(WrapTest):
    def test_async_calls_and_streams_are_recorded(self) -> None:
        async def main() -> List[str]:
            client = self.vigil.wrap_openai(openai.AsyncOpenAI(base_url=FAKE_URL))
            reply = await client.chat.completions.create(model="gpt-4o-mini", messages=messages())
            stream = await client.chat.completions.create(model="gpt-4o-mini", messages=messages(), stream=True, stream_options={"include_usage": True})
            self.assertIsInstance(stream, openai.AsyncStream)
            pieces = [c.choices[0].delta.content async for c in stream if c.choices and c.choices[0].delta.content]
            async with await client.chat.completions.create(model="gpt-4o-mini", messages=messages(), stream=True) as left:
                async for _chunk in left:
                    break
            async with self.vigil.trace("async-scope"):
                await client.responses.create(model="gpt-4o-mini", input="hi")
            with self.assertRaises(openai.InternalServerError):
                await client.embeddings.create(model="error-503", input="x")
            await client.close()
            return [reply.choices[0].message.content, "".join(pieces)]

        texts = asyncio.run(main())
        self.assertEqual(texts, ["Paris is the capital of France.", "Paris is the capital."])
        plain, streamed, left, scoped, failed = self.traces()
        self.assertTrue(left["metadata"]["stream_left_early"])
        self.assertEqual(plain["tokens"]["total"], 28)
        self.assertEqual(streamed["output"]["content"], "Paris is the capital.")
        self.assertEqual(streamed["tokens"]["total"], 22)
        self.assertEqual(scoped["name"], "async-scope")
        self.assertEqual((failed["status"], failed["metadata"]["http_status"]), ("error", 503))


if __name__ == "__main__":
    unittest.main()

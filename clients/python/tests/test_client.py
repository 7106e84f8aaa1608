"""Vigil(): recording by hand, trace() scopes (with, async with, decorators), the sender thread's batching and
interval, bounded memory, and a client that never raises into the application."""

from __future__ import annotations

import asyncio
import datetime
import json
import math
import os
import re
import threading

from vigil_llm import Vigil, current_trace

from .support import ClientTest, wait_for

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


class RecordTest(ClientTest):
    def test_items_go_out_in_one_batch_on_flush_with_the_key_and_client_ids(self) -> None:
        vigil = self.client(flush_interval=60)
        ids = [vigil.record({"model": "gpt-4o-mini", "input": f"q{i}", "output": f"a{i}", "latency_ms": 12.5}) for i in range(5)]
        self.assertTrue(vigil.flush())
        self.assertEqual(len(self.receiver.batches), 1)
        batch = self.receiver.batches[0]
        self.assertEqual(batch["path"], "/v1/traces")
        self.assertEqual(batch["headers"]["X-Service-Project-Key"], "vk_test")
        self.assertRegex(batch["headers"]["User-Agent"], r"^vigil-llm-python/\d")
        self.assertEqual([i["id"] for i in batch["items"]], ids)
        for item_id in ids:
            self.assertRegex(item_id, UUID4)
        self.assertEqual(batch["items"][2], {"id": ids[2], "model": "gpt-4o-mini", "input": "q2", "output": "a2", "latency_ms": 12.5})
        self.assertEqual(vigil.stats(), {"sent": 5, "dropped": 0, "rejected": 0, "retries": 0, "buffered": 0, "buffered_bytes": 0})

    def test_a_full_batch_leaves_at_once_and_fewer_after_the_interval_without_a_flush(self) -> None:
        vigil = self.client(batch_size=10, flush_interval=0.2)
        for i in range(13):
            vigil.record({"model": "m", "input": i})
        wait_for(lambda: len(self.receiver.batches) == 2, what="the full batch, then the rest after the interval")
        self.assertEqual([len(b["items"]) for b in self.receiver.batches], [10, 3])

    def test_big_bodies_are_gzipped_and_small_ones_are_not(self) -> None:
        vigil = self.client(flush_interval=60)
        vigil.record({"model": "m", "input": "x"})
        vigil.flush()
        vigil.record({"model": "m", "input": "y" * 5000})
        vigil.flush()
        self.assertEqual([b["gzip"] for b in self.receiver.batches], [False, True])
        self.assertEqual(self.receiver.batches[1]["items"][0]["input"], "y" * 5000)

    def test_lenient_input_becomes_a_strict_item(self) -> None:
        vigil = self.client(flush_interval=60)

        class Custom:
            def __init__(self) -> None:
                self.visible = 1
                self._hidden = 2

        cyclic: dict = {"a": 1}
        cyclic["self"] = cyclic
        started = datetime.datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.timezone.utc)
        item_id = vigil.record({
            "model": "m", "start_time": started, "error": ValueError("boom"), "latency_ms": math.nan,
            "tokens": {"input": 10.4, "output": -1, "total": "12"}, "unknown_key": 1, "tags": ["a", "", "a", "b", 3],
            "input": {"set": {1}, "bytes": b"abc", "nan": math.inf, "custom": Custom(), "cyclic": cyclic, 4: "int key"},
            "metadata": "not an object",
        })
        vigil.flush()
        item = self.receiver.item(item_id)
        assert item is not None
        self.assertEqual(item["start_time"], "2026-01-02T03:04:05.678Z")
        self.assertEqual(item["status"], "error")
        self.assertEqual(item["error"], "ValueError: boom")
        self.assertNotIn("latency_ms", item)
        self.assertEqual(item["tokens"], {"input": 10})
        self.assertNotIn("unknown_key", item)
        self.assertEqual(item["tags"], ["a", "b"])
        self.assertEqual(item["input"], {"set": [1], "bytes": "[bytes 3 bytes]", "nan": None, "custom": {"visible": 1},
                                         "cyclic": {"a": 1, "self": "[circular]"}, "4": "int key"})
        self.assertEqual(item["metadata"], {"value": "not an object"})

    def test_an_item_over_max_item_bytes_is_truncated_in_its_free_form_fields(self) -> None:
        vigil = self.client(flush_interval=60, max_item_bytes=4096)
        item_id = vigil.record({"model": "m", "input": "q" * 100_000, "output": ["a" * 50_000], "prompt_template": {"name": "t", "raw": "Hello {x}"}})
        vigil.flush()
        item = self.receiver.item(item_id)
        assert item is not None
        self.assertLessEqual(len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode()), 4096)
        self.assertRegex(item["input"], r"…\[truncated \d+ chars\]$")
        self.assertEqual(item["prompt_template"], {"name": "t", "raw": "Hello {x}"}, "a template's text is never cut")

    def test_an_item_without_a_model_is_dropped_counted_and_reported(self) -> None:
        vigil = self.client()
        self.assertIsNone(vigil.record({"input": "no model"}))
        self.assertIsNone(vigil.record("not a mapping"))  # type: ignore[arg-type]
        self.assertEqual(vigil.stats()["dropped"], 2)
        self.assertEqual(self.codes(), ["VIGIL_ERR_CLIENT_INVALID_ITEM"] * 2)


class ScopeTest(ClientTest):
    def test_traces_inside_a_scope_carry_its_attributes_and_nested_scopes_add_up(self) -> None:
        vigil = self.client(flush_interval=60)
        with vigil.trace("support-reply", user_id="u1", session_id="s1", tags=["beta"], metadata={"feature": "faq", "tier": 1},
                         prompt_template={"name": "support", "raw": "Answer {q}", "variables": {"q": "?"}}):
            with vigil.trace(tags=["inner"], metadata={"tier": 2}):
                inner = vigil.record({"model": "m", "metadata": {"own": True}})
            outer = vigil.record({"model": "m", "name": "own-name"})
        outside = vigil.record({"model": "m"})
        vigil.flush()
        got = {i["id"]: i for i in self.receiver.items()}
        self.assertEqual(got[inner]["name"], "support-reply")
        self.assertEqual(got[inner]["tags"], ["beta", "inner"])
        self.assertEqual(got[inner]["metadata"], {"feature": "faq", "tier": 2, "own": True})
        self.assertEqual((got[inner]["user_id"], got[inner]["session_id"]), ("u1", "s1"))
        self.assertEqual(got[inner]["prompt_template"], {"name": "support", "raw": "Answer {q}", "variables": {"q": "?"}})
        self.assertEqual(got[outer]["name"], "own-name")
        self.assertEqual(got[outer]["tags"], ["beta"])
        self.assertEqual(got[outside], {"id": outside, "model": "m"})

    def test_a_scope_with_a_model_records_its_own_trace_and_an_exception_passes_through(self) -> None:
        vigil = self.client(flush_interval=60)
        with vigil.trace("summarise", model="claude-3-5-sonnet", input="long text", provider="anthropic") as span:
            span.update(output="short", tokens={"input": 100, "output": 10}, metadata={"step": 1})
        with self.assertRaises(KeyError):
            with vigil.trace("lookup", model="m"):
                raise KeyError("missing")
        vigil.flush()
        first, second = self.receiver.items()
        self.assertEqual(first["name"], "summarise")
        self.assertEqual((first["model"], first["provider"], first["input"], first["output"]), ("claude-3-5-sonnet", "anthropic", "long text", "short"))
        self.assertEqual(first["tokens"], {"input": 100, "output": 10})
        self.assertEqual(first["metadata"], {"step": 1})
        self.assertGreater(first["latency_ms"], 0)
        self.assertRegex(first["start_time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertEqual((second["status"], second["error"]), ("error", "KeyError: 'missing'"))

    def test_the_decorator_scopes_each_call_and_records_arguments_and_result_with_a_model(self) -> None:
        vigil = self.client(flush_interval=60)

        @vigil.trace("answer", model="local-model")
        def answer(question: str, *, polite: bool = False) -> str:
            current = current_trace()
            assert current is not None
            current.update(tokens={"input": 3})
            vigil.record({"model": "inner-call"})
            return f"answer to {question}"

        self.assertEqual(answer("why?", polite=True), "answer to why?")
        self.assertEqual(answer.__name__, "answer")
        vigil.flush()
        inner, own = self.receiver.items()
        self.assertEqual(inner["name"], "answer")
        self.assertEqual(own["input"], {"args": ["why?"], "kwargs": {"polite": True}})
        self.assertEqual(own["output"], "answer to why?")
        self.assertEqual(own["tokens"], {"input": 3})

    def test_a_bare_decorator_names_the_scope_after_the_function(self) -> None:
        vigil = self.client(flush_interval=60)

        @vigil.trace
        def lookup() -> None:
            vigil.record({"model": "m"})

        lookup()
        vigil.flush()
        self.assertEqual(self.receiver.items()[0]["name"], "ScopeTest.test_a_bare_decorator_names_the_scope_after_the_function.<locals>.lookup")

    def test_async_scopes_follow_their_task_and_do_not_leak_into_others(self) -> None:
        vigil = self.client(flush_interval=60)

        @vigil.trace("async-step")
        async def step(user: str) -> None:
            async with vigil.trace(user_id=user):
                await asyncio.sleep(0.01)
                vigil.record({"model": "m", "metadata": {"user": user}})

        async def main() -> None:
            await asyncio.gather(*(step(f"user-{i}") for i in range(5)))

        asyncio.run(main())
        vigil.flush()
        items = self.receiver.items()
        self.assertEqual(len(items), 5)
        for item in items:
            self.assertEqual(item["user_id"], item["metadata"]["user"])
            self.assertEqual(item["name"], "async-step")

    def test_threads_do_not_inherit_a_scope(self) -> None:
        vigil = self.client(flush_interval=60)
        ids = []
        with vigil.trace(user_id="main-thread"):
            worker = threading.Thread(target=lambda: ids.append(vigil.record({"model": "m"})))
            worker.start()
            worker.join()
        vigil.flush()
        self.assertNotIn("user_id", self.receiver.item(ids[0]) or {"user_id": "missing"})


class ForkTest(ClientTest):
    def test_a_forked_child_sends_through_a_sender_thread_of_its_own(self) -> None:
        vigil = self.client(flush_interval=60)
        vigil.record({"model": "m", "input": "parent"})
        self.assertTrue(vigil.flush())
        pid = os.fork()
        if pid == 0:  # the child: its parent's sender thread did not survive the fork
            ok = False
            try:
                vigil.record({"model": "m", "input": "child"})
                ok = vigil.flush(5)
            finally:
                os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        self.assertEqual(sorted(i["input"] for i in self.receiver.items()), ["child", "parent"])


class NeverRaisesTest(ClientTest):
    def test_no_key_records_nothing_says_why_once_and_counts(self) -> None:
        vigil = Vigil(project_key=None, base_url=self.receiver.url, on_error=self.errors.append)
        self.clients.append(vigil)
        self.assertNotIn("VIGIL_PROJECT_KEY", os.environ)
        self.assertIsNotNone(vigil.record({"model": "m"}))
        self.assertTrue(vigil.flush())
        self.assertEqual(self.codes(), ["VIGIL_ERR_CLIENT_CONFIG"])
        self.assertEqual(vigil.stats()["dropped"], 1)
        self.assertEqual(self.receiver.batches, [])

    def test_a_bad_url_is_a_config_error_not_an_exception(self) -> None:
        vigil = Vigil(project_key="k", base_url="ftp://example", on_error=self.errors.append)
        self.clients.append(vigil)
        self.assertEqual(self.codes(), ["VIGIL_ERR_CLIENT_CONFIG"])
        self.assertIn("ftp://example", self.errors[0].message)

    def test_an_on_error_that_raises_is_ignored(self) -> None:
        def explode(err: object) -> None:
            raise RuntimeError("the application's handler is broken")

        vigil = self.client(on_error=explode)
        self.assertIsNone(vigil.record({"no": "model"}))

    def test_a_full_buffer_drops_new_traces_reports_once_and_recovers_after_it_drains(self) -> None:
        vigil = self.client(flush_interval=60, max_buffer_items=3)
        for i in range(10):
            vigil.record({"model": "m", "input": i})
        self.assertEqual(vigil.stats()["dropped"], 7)
        self.assertEqual(self.codes(), ["VIGIL_ERR_CLIENT_BUFFER_FULL"])
        self.assertTrue(vigil.flush())
        vigil.record({"model": "m", "input": "after"})
        self.assertTrue(vigil.flush())
        self.assertEqual([i["input"] for i in self.receiver.items()], [0, 1, 2, "after"])

    def test_a_dead_server_costs_the_retries_then_the_batch_never_an_exception(self) -> None:
        self.receiver.script.extend([503, 503, 503])
        vigil = self.client(flush_interval=60, max_retries=2, retry_base=0.01)
        vigil.record({"model": "m"})
        self.assertTrue(vigil.flush())
        self.assertEqual(len(self.receiver.batches), 3)
        self.assertEqual(vigil.stats()["dropped"], 1)
        self.assertEqual(vigil.stats()["retries"], 2)
        self.assertEqual(self.codes(), ["VIGIL_ERR_CLIENT_RETRIES_EXHAUSTED"])

    def test_after_close_traces_are_dropped_and_counted_and_close_twice_is_harmless(self) -> None:
        vigil = self.client(flush_interval=60)
        vigil.record({"model": "m"})
        vigil.close()
        vigil.close()
        vigil.record({"model": "m"})
        self.assertEqual(len(self.receiver.items()), 1)
        self.assertEqual(vigil.stats()["dropped"], 1)
        self.assertEqual(self.codes(), ["VIGIL_ERR_CLIENT_CLOSED"])

    def test_rejected_items_are_counted_apart_and_reported(self) -> None:
        vigil = self.client(flush_interval=60)
        vigil._record_in_scope({"model": "m"}, None)
        # An item the server refuses one by one: bypass the client's own model check to reach the server's.
        from vigil_llm.encode_item import EncodedItem
        assert vigil._delivery is not None
        vigil._delivery.enqueue(EncodedItem("x", b'{"id":"x"}'))
        self.assertTrue(vigil.flush())
        stats = vigil.stats()
        self.assertEqual((stats["sent"], stats["rejected"], stats["dropped"]), (1, 1, 0))
        self.assertEqual(self.codes(), ["VIGIL_ERR_CLIENT_ITEMS_REJECTED"])

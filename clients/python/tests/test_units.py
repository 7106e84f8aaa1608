"""The pure parts: backoff and Retry-After, the ingest URL and options, what an answer means for a batch."""

from __future__ import annotations

import unittest
from email.utils import formatdate

from vigil_llm.options import ingest_endpoint, resolve_options
from vigil_llm.retry_delay import backoff, parse_retry_after
from vigil_llm.transport import Accepted, Refused, Retry, TooLarge, classify


class RetryDelayTest(unittest.TestCase):
    def test_backoff_doubles_with_equal_jitter_and_stops_at_the_maximum(self) -> None:
        self.assertEqual([backoff(n, 0.5, 30, lambda: 0) for n in range(8)], [0.25, 0.5, 1, 2, 4, 8, 15, 15])
        self.assertEqual([backoff(n, 0.5, 30, lambda: 1) for n in range(3)], [0.5, 1, 2])

    def test_retry_after_in_seconds_or_as_an_http_date(self) -> None:
        self.assertEqual(parse_retry_after("3"), 3.0)
        self.assertEqual(parse_retry_after(" 0.2 "), 0.2)
        self.assertAlmostEqual(parse_retry_after(formatdate(1_000_030, usegmt=True), now=1_000_000) or 0, 30.0)
        self.assertEqual(parse_retry_after(formatdate(999_000, usegmt=True), now=1_000_000), 0.0)
        for bad in (None, "", "-3", "soon", "Xyz, 99 Foo"):
            self.assertIsNone(parse_retry_after(bad), bad)


class OptionsTest(unittest.TestCase):
    def test_the_ingest_path_is_added_to_a_base_and_kept_when_given(self) -> None:
        self.assertEqual(ingest_endpoint("http://h:9095"), "http://h:9095/v1/traces")
        self.assertEqual(ingest_endpoint("https://h/vigil/"), "https://h/vigil/v1/traces")
        self.assertEqual(ingest_endpoint("http://h/v1/traces/"), "http://h/v1/traces")
        with self.assertRaises(ValueError):
            ingest_endpoint("file:///tmp")

    def test_env_stands_in_and_bad_numbers_fall_back(self) -> None:
        o = resolve_options({"batch_size": -1, "flush_interval": float("nan"), "max_retries": 0, "timeout": True}, env={"VIGIL_URL": "http://e:1", "VIGIL_PROJECT_KEY": "k"})
        self.assertEqual((o.endpoint, o.project_key, o.unusable), ("http://e:1/v1/traces", "k", None))
        self.assertEqual((o.batch_size, o.flush_interval, o.max_retries, o.timeout), (100, 1.0, 0, 10.0))
        self.assertIn("no project key", resolve_options({}, env={}).unusable or "")


class ClassifyTest(unittest.TestCase):
    def test_each_answer_means_what_the_contract_says(self) -> None:
        self.assertEqual(classify(202, None, '{"accepted":2,"rejected":1,"errors":[{"index":1}],"ids":[]}', 3), Accepted(2, 1, [{"index": 1}]))
        self.assertEqual(classify(202, None, "not json", 3), Accepted(3, 0, []))
        self.assertEqual(classify(429, "7", '{"error":{"code":"VIGIL_ERR_LLM_MONTHLY_LIMIT","message":"used"}}', 1),
                         Retry("HTTP 429: VIGIL_ERR_LLM_MONTHLY_LIMIT: used", 429, 7.0))
        self.assertIsInstance(classify(503, None, "", 1), Retry)
        self.assertIsInstance(classify(413, None, "", 1), TooLarge)
        self.assertEqual(classify(401, None, '{"error":{"code":"VIGIL_ERR_LLM_UNKNOWN_KEY","message":"unknown"}}', 1),
                         Refused(401, "HTTP 401: VIGIL_ERR_LLM_UNKNOWN_KEY: unknown"))
        self.assertIsInstance(classify(400, None, "", 1), Refused)

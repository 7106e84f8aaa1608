"""VigilMiddleware in a FastAPI app under uvicorn, shipping to a loopback receiver: what it records, that the app's
bytes do not change with it, that an agent that is down or hangs never delays a response, and its bounds."""
from __future__ import annotations

import json
import os
import socket
import tempfile
import threading
import time
import unittest
from typing import Any, Dict, List

from . import support  # noqa: F401
from .apps import Served, http, make_app, raw_request
from .receiver import Receiver
from vigil_fastapi import VigilConfigError, VigilMiddleware, VigilOptionsError

TOKEN = 'middleware-ingest-token-0123456789'
CONFIG = '''
capture:
  max_body_bytes: ${MAX_BODY:-2kb}
rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant }
    redact: { headers: [Authorization], query_params: [token] }
  - name: users
    match: { path: /api/users/** }
    redact: { json_fields: [$.password, $.echo.card.number], detect: [email] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body, headers]
'''


def write_config(test: unittest.TestCase, text: str = CONFIG) -> str:
    d = tempfile.mkdtemp(prefix='vigil-fastapi-')
    test.addCleanup(__import__('shutil').rmtree, d, True)
    path = os.path.join(d, 'vigil.yaml')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return path


def middleware_of(app: Any) -> VigilMiddleware:
    node = app.middleware_stack
    while node is not None and not isinstance(node, VigilMiddleware):
        node = getattr(node, 'app', None)
    assert isinstance(node, VigilMiddleware)
    return node


def body_of(response: bytes) -> bytes:
    return response.split(b'\r\n\r\n', 1)[1]


class Records(unittest.TestCase):
    def setUp(self) -> None:
        self.receiver = Receiver()
        self.addCleanup(self.receiver.close)
        self.app = make_app({'config_path': write_config(self), 'agent_url': self.receiver.url, 'token': TOKEN,
                             'flush_interval_ms': 20})
        self.served = Served(self.app)
        self.addCleanup(self.served.stop)

    def test_a_json_exchange_is_governed_and_shipped(self) -> None:
        res = raw_request(self.served.port, http('POST', '/api/users/7?token=abc&q=1', b'{"name":"Ada","password":"p","card":{"number":"4111"}}', [
            ('Content-Type', 'application/json'), ('Authorization', 'Bearer sk-x'), ('X-Tenant', 'acme')]))
        self.assertIn(b'200 OK', res.split(b'\r\n')[0])
        [r] = self.receiver.wait(1)
        self.assertEqual(r['method'], 'POST')
        self.assertEqual(r['path'], '/api/users/7')
        self.assertEqual(r['route'], ['/**', '/api/users/**'])
        self.assertEqual(r['matched_rules'], ['all', 'users'])
        self.assertEqual(r['query'], {'token': '[REDACTED]', 'q': '1'})
        self.assertEqual(r['headers']['Authorization'], '[REDACTED]')
        self.assertEqual(r['labels'], {'tenant': 'acme'})
        self.assertEqual(r['request_body'], {'name': 'Ada', 'password': '[REDACTED]', 'card': {'number': '4111'}})
        self.assertEqual(r['response_body']['password'], '[REDACTED]')
        self.assertEqual(r['response_body']['echo']['card']['number'], '[REDACTED]')
        self.assertEqual(r['response_headers']['Set-Cookie'], 's=1')
        self.assertEqual(r['status'], 200)
        self.assertEqual(self.receiver.posts[0], ('/api/gateway/records', 'Bearer ' + TOKEN))

    def test_a_sync_endpoint_and_a_detector(self) -> None:
        raw_request(self.served.port, http('GET', '/api/users/9'))
        [r] = self.receiver.wait(1)
        self.assertEqual(r['response_body'], {'id': '9', 'email': '[REDACTED]'})

    def test_a_streamed_response_is_copied_whole(self) -> None:
        res = raw_request(self.served.port, http('GET', '/api/stream'))
        self.assertIn(b'transfer-encoding: chunked', res.lower())
        [r] = self.receiver.wait(1)
        self.assertEqual(r['response_body'], ''.join('{"part":%d}\n' % i for i in range(5)))
        self.assertFalse(r['truncated'])

    def test_bodies_over_max_body_bytes_are_truncated(self) -> None:
        raw_request(self.served.port, http('POST', '/api/users/big', json.dumps({'pad': 'x' * 5000}).encode(), [('Content-Type', 'application/json')]))
        [r] = self.receiver.wait(1)
        self.assertTrue(r['truncated'])
        self.assertIn('request_body: truncated at capture limit where json_fields redaction applies', r['dropped_reason'])

    def test_a_route_that_captures_nothing_does_nothing(self) -> None:
        res = raw_request(self.served.port, http('POST', '/admin/upload', b'secret' * 10))
        self.assertEqual(body_of(res), b'got 60 bytes')
        raw_request(self.served.port, http('GET', '/api/users/1'))
        self.receiver.wait(1)
        time.sleep(0.2)
        self.assertEqual([r['path'] for r in self.receiver.records], ['/api/users/1'])
        self.assertEqual(middleware_of(self.app).stats()['captured'], 1)

    def test_a_204_has_no_body_copy(self) -> None:
        raw_request(self.served.port, http('GET', '/api/empty'))
        [r] = self.receiver.wait(1)
        self.assertEqual((r['status'], r['response_body']), (204, None))

    def test_an_app_that_raises_records_the_500_the_server_answers(self) -> None:
        res = raw_request(self.served.port, http('GET', '/api/boom'))
        self.assertTrue(res.startswith(b'HTTP/1.1 500'), res[:40])
        [r] = self.receiver.wait(1)
        self.assertEqual((r['status'], r['response_headers'], r['response_body'], r['error']), (500, None, None, None))

    def test_a_client_that_leaves_mid_response_is_recorded_as_client_aborted(self) -> None:
        with socket.create_connection(('127.0.0.1', self.served.port), timeout=30) as s:
            s.sendall(http('GET', '/api/slow-stream'))
            got = b''
            while b'"tick":1' not in got:
                got += s.recv(65536)
        [r] = self.receiver.wait(1)
        self.assertEqual(r['error'], 'client_aborted')
        self.assertTrue(r['partial'])
        self.assertTrue(r['truncated'])
        self.assertTrue(r['response_body'].startswith('{"tick":0}\n{"tick":1}\n'), r['response_body'])

    def test_shutdown_flushes_what_is_queued(self) -> None:
        m = middleware_of(self.app)
        m.shipper.flush_interval = 60.0  # only the shutdown can send it now
        raw_request(self.served.port, http('GET', '/api/users/shutdown'))
        m.governance.flush(10)
        self.assertEqual(self.receiver.records, [])
        self.served.stop()
        self.assertEqual([r['path'] for r in self.receiver.records], ['/api/users/shutdown'])


REQUESTS = [
    http('POST', '/api/users/1?token=t', b'{"a":1,"password":"x"}', [('Content-Type', 'application/json'), ('X-Tenant', 't1')]),
    http('GET', '/api/users/2'),
    http('GET', '/api/stream'),
    http('POST', '/admin/upload', b'\x00\x01binary'),
    http('GET', '/api/empty'),
    http('HEAD', '/api/users/3'),
    http('GET', '/nowhere'),
]


class ByteIdentical(unittest.TestCase):
    def test_responses_are_byte_identical_with_and_without_the_middleware(self) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.close)
        plain = Served(make_app())
        self.addCleanup(plain.stop)
        governed_app = make_app({'config_path': write_config(self), 'agent_url': receiver.url, 'token': TOKEN, 'flush_interval_ms': 20})
        governed = Served(governed_app)
        self.addCleanup(governed.stop)
        for request in REQUESTS:
            self.assertEqual(raw_request(governed.port, request), raw_request(plain.port, request), request[:40])
        receiver.wait(len(REQUESTS) - 1)  # every request but the restricted one is recorded
        self.assertEqual(middleware_of(governed_app).stats()['captured'], len(REQUESTS) - 1)


class HangingAgent:
    """Accepts connections and never answers."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen(128)
        self.url = 'http://127.0.0.1:%d' % self.sock.getsockname()[1]
        self.held: List[socket.socket] = []
        self.accepted = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            self.accepted.set()

    def close(self) -> None:
        self.sock.close()
        for c in self.held:
            c.close()


def closed_port() -> str:
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return 'http://127.0.0.1:%d' % port


class AgentDown(unittest.TestCase):
    def _check_never_delayed(self, agent_url: str) -> VigilMiddleware:
        errors: List[BaseException] = []
        app = make_app({'config_path': write_config(self), 'agent_url': agent_url, 'token': TOKEN, 'flush_interval_ms': 10,
                        'timeout_ms': 60_000, 'min_backoff_ms': 10, 'max_backoff_ms': 50, 'on_error': errors.append})
        served = Served(app)
        plain = Served(make_app())
        self.addCleanup(plain.stop)
        # The slowest of a few plain requests bounds what a governed one may take (CI is slow: generous factor).
        baseline = 0.0
        for _ in range(5):
            started = time.monotonic()
            raw_request(plain.port, REQUESTS[0])
            baseline = max(baseline, time.monotonic() - started)
        bound = max(1.0, baseline * 20)
        for i in range(40):
            started = time.monotonic()
            res = raw_request(served.port, REQUESTS[i % 3], timeout=bound)
            self.assertLess(time.monotonic() - started, bound, 'request %d took too long' % i)
            self.assertTrue(res.startswith(b'HTTP/1.1 200'), res[:40])
        m = middleware_of(app)
        m.governance.flush(10)
        self.assertEqual(m.stats()['captured'], 40)
        served.server.should_exit = True
        started = time.monotonic()
        served.thread.join(30)
        # The shutdown's flush is bounded (5 s by default), even when the agent never answers.
        self.assertLess(time.monotonic() - started, 15)
        self.assertEqual(m.stats()['sent'], 0)
        return m

    def test_an_agent_on_a_closed_port_never_delays_a_response(self) -> None:
        m = self._check_never_delayed(closed_port())
        self.assertGreater(m.stats()['retries'], 0)

    def test_an_agent_that_never_answers_never_delays_a_response(self) -> None:
        agent = HangingAgent()
        self.addCleanup(agent.close)
        self._check_never_delayed(agent.url)
        self.assertTrue(agent.accepted.is_set())


class Delivery(unittest.TestCase):
    def _middleware(self, receiver: Receiver, **options: Any) -> VigilMiddleware:
        async def app(scope: Dict[str, Any], receive: Any, send: Any) -> None:
            pass
        m = VigilMiddleware(app, config_path=write_config(self), agent_url=receiver.url, token=TOKEN, **options)
        self.addCleanup(m.close, 1.0)
        return m

    def test_429_and_5xx_are_retried_and_4xx_dropped(self) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.close)
        m = self._middleware(receiver, min_backoff_ms=10, max_backoff_ms=20, flush_interval_ms=10)
        receiver.script = [503, 429]
        m.shipper.push(['{"n":1}'])
        receiver.wait(1)
        self.assertEqual(len(receiver.posts), 3)
        receiver.script = [400]
        m.shipper.push(['{"n":2}'])
        m.shipper.push(['{"n":3}'])
        m.flush(5)
        stats = m.stats()
        self.assertEqual((stats['sent'], stats['rejected'], stats['retries']), (1, 2, 2))

    def test_batches_hold_at_most_batch_size_records(self) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.close)
        m = self._middleware(receiver, batch_size=3, flush_interval_ms=5000)
        m.shipper.push(['{"n":%d}' % i for i in range(7)])
        m.flush(5)
        self.assertEqual([r['n'] for r in receiver.records], list(range(7)))
        self.assertEqual(len(receiver.posts), 3)

    def test_the_queue_is_bounded(self) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.close)
        m = self._middleware(receiver, max_queue=5, flush_interval_ms=60_000)
        m.shipper.push(['{"n":%d}' % i for i in range(8)])
        self.assertEqual((m.stats()['queued'], m.stats()['dropped']), (5, 3))
        m.flush(5)
        self.assertEqual([r['n'] for r in receiver.records], [0, 1, 2, 3, 4])


class CopyBudget(unittest.TestCase):
    def test_a_copy_past_queue_bytes_is_not_made_and_the_record_says_so(self) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.close)
        app = make_app({'config_path': write_config(self), 'agent_url': receiver.url, 'token': TOKEN, 'flush_interval_ms': 20,
                        'queue_bytes': 100})
        served = Served(app)
        self.addCleanup(served.stop)
        res = raw_request(served.port, http('POST', '/api/users/b', json.dumps({'pad': 'x' * 500}).encode(), [('Content-Type', 'application/json')]))
        self.assertTrue(res.startswith(b'HTTP/1.1 200'))
        [r] = receiver.wait(1)
        self.assertEqual(r['request_body'], None)
        self.assertEqual(r['dropped_reason'], 'request_body: not copied: the capture lane held capture.queue_bytes of bodies already; '
                                              'response_body: not copied: the capture lane held capture.queue_bytes of bodies already')
        middleware_of(app).governance.flush(5)
        self.assertEqual(middleware_of(app).stats()['held_bytes'], 0)


class NeverIntoTheApp(unittest.TestCase):
    def test_a_failure_while_watching_is_reported_and_the_exchange_let_go(self) -> None:
        from unittest import mock
        receiver = Receiver()
        self.addCleanup(receiver.close)
        errors: List[BaseException] = []
        app = make_app({'config_path': write_config(self), 'agent_url': receiver.url, 'token': TOKEN, 'on_error': errors.append})
        served = Served(app)
        self.addCleanup(served.stop)
        plain = Served(make_app())
        self.addCleanup(plain.stop)
        with mock.patch('vigil_fastapi.interception.BoundedCopy.push', side_effect=RuntimeError('copy broke')):
            res = raw_request(served.port, REQUESTS[0])
        self.assertEqual(res, raw_request(plain.port, REQUESTS[0]))
        self.assertEqual([str(e) for e in errors], ['copy broke'])
        m = middleware_of(app)
        self.assertEqual((m.stats()['captured'], m.stats()['held_bytes']), (0, 0))


class Options(unittest.TestCase):
    def _make(self, **options: Any) -> VigilMiddleware:
        async def app(scope: Dict[str, Any], receive: Any, send: Any) -> None:
            pass
        m = VigilMiddleware(app, **options)
        self.addCleanup(m.close, 0.1)
        return m

    def test_defaults_come_from_the_environment(self) -> None:
        m = self._make(config_path=write_config(self), env={'VIGIL_AGENT_URL': 'http://127.0.0.1:1/prefix/', 'VIGIL_INGEST_TOKEN': 'x'})
        self.assertEqual(m.shipper.url, 'http://127.0.0.1:1/prefix/api/gateway/records')
        self.assertEqual(m.max_body_bytes, 2048)

    def test_bad_options_are_refused_when_created(self) -> None:
        config = write_config(self)
        for options, fragment in [
            ({'agent_url': 'http://a', 'token': 't'}, 'config_path is required'),
            ({'config_path': config, 'token': 't', 'env': {}}, 'agent_url is required'),
            ({'config_path': config, 'agent_url': 'ftp://a', 'token': 't'}, 'must be http or https'),
            ({'config_path': config, 'agent_url': 'http://a', 'env': {}}, 'token is required'),
            ({'config_path': config, 'agent_url': 'http://a', 'token': 't', 'batch_size': 0}, 'batch_size must be a positive number'),
        ]:
            with self.assertRaises(VigilOptionsError) as caught:
                self._make(**options)
            self.assertIn(fragment, str(caught.exception))

    def test_config_problems_name_file_line_and_key_path(self) -> None:
        bad = write_config(self, 'rules:\n  - name: a\n    match: { path: /x }\n    redact:\n      jsonfields: [$.a]\n')
        with self.assertRaises(VigilConfigError) as caught:
            self._make(config_path=bad, agent_url='http://a', token='t')
        self.assertIn('%s:5:7: rules[0].redact.jsonfields: unknown key (allowed here: headers, query_params, json_fields, detect)' % bad,
                      str(caught.exception))

    def test_wasm_rules_are_refused_with_a_clear_error(self) -> None:
        wasm = write_config(self, 'rules:\n  - name: w\n    match: { path: /x }\n    wasm: ./p.wasm\n')
        with self.assertRaises(VigilConfigError) as caught:
            self._make(config_path=wasm, agent_url='http://a', token='t')
        self.assertIn(':4:11: rules[0].wasm: WASM policy modules are not run by the Python middleware', str(caught.exception))


if __name__ == '__main__':
    unittest.main()

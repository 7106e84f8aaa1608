"""The governance conformance corpus (tests/fixtures/governance-corpus/corpus.json): every case's record, byte for
byte, from the ported engine directly, and from the corpus app (FastAPI under uvicorn, VigilMiddleware) shipping to a
loopback receiver. A mismatch is a port bug."""
from __future__ import annotations

import os
import subprocess
import sys
import unittest

from . import support
from .corpus_client import send_case
from .corpus_engine import load_configs, load_corpus, record_of
from .receiver import Receiver, normalize

TOKEN = 'corpus-ingest-token-0123456789'


class CorpusThroughTheEngine(unittest.TestCase):
    def test_every_case_makes_its_record_byte_for_byte(self) -> None:
        corpus = load_corpus()
        configs = load_configs(corpus)
        self.assertGreaterEqual(len(corpus['cases']), 200)
        wrong = []
        for case in corpus['cases']:
            got = record_of(configs[case['config']], case)
            if got != case['record']:
                wrong.append('%s\n  want %s\n  got  %s' % (case['name'], case['record'], got))
        self.assertEqual(wrong, [], '%d of %d cases differ:\n%s' % (len(wrong), len(corpus['cases']), '\n'.join(wrong[:10])))

    def test_every_family_is_there(self) -> None:
        families = {c['family'] for c in load_corpus()['cases']}
        for family in ('path fold', 'json paths', 'headers', 'query parameters', 'restrict', 'sample', 'keep_errors',
                       'labels', 'meter', 'detectors'):
            self.assertIn(family, families)


class CorpusThroughTheApp(unittest.TestCase):
    def test_the_corpus_app_ships_every_record_byte_for_byte(self) -> None:
        corpus = load_corpus()
        receiver = Receiver()
        self.addCleanup(receiver.close)
        expected_total = 0
        for config, text in corpus['configs'].items():
            cases = [c for c in corpus['cases'] if c['config'] == config]
            config_file = os.path.join(self._tmp(), '%s.yaml' % config)
            with open(config_file, 'w', encoding='utf-8') as f:
                f.write(text)
            env = dict(os.environ, CORPUS_FILE=support.CORPUS_FILE, CORPUS_CONFIG=config, VIGIL_CONFIG=config_file,
                       VIGIL_AGENT_URL=receiver.url, VIGIL_INGEST_TOKEN=TOKEN, PORT='0', PYTHONDONTWRITEBYTECODE='1')
            app = subprocess.Popen([sys.executable, os.path.join(support.HERE, 'corpus_app.py')], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                line = app.stdout.readline() if app.stdout else ''
                if not line.startswith('listening '):
                    app.kill()
                    self.fail('the corpus app did not start: %s %s' % (line, app.communicate()[1]))
                port = int(line.split()[1])
                for case in cases:
                    status, _ = send_case(port, case)
                    self.assertEqual(status, case['response']['status'], case['name'])
                    if case['record'] is not None:
                        expected_total += 1
                        receiver.wait(expected_total)
                        got = normalize(receiver.texts[expected_total - 1])
                        self.assertEqual(got, case['record'], case['name'])
            finally:
                app.terminate()
                app.communicate(timeout=30)
        self.assertEqual(len(receiver.texts), expected_total)
        self.assertTrue(all(auth == 'Bearer ' + TOKEN for _, auth in receiver.posts))

    def _tmp(self) -> str:
        import tempfile
        d = tempfile.mkdtemp(prefix='vigil-corpus-app-')
        self.addCleanup(__import__('shutil').rmtree, d, True)
        return d


if __name__ == '__main__':
    unittest.main()

"""The config file as the middleware reads it (load_config.py, as `vigil run`'s loader and middleware/core/load-policy.ts
read it): interpolation, YAML 1.2 scalars, duplicate keys, strict rules with file:line:column, capture.max_body_bytes;
and the decision cache's bound."""
from __future__ import annotations

import os
import tempfile
import unittest

from . import support  # noqa: F401
from vigil_fastapi import VigilConfigError
from vigil_fastapi.engine.compile_policy import CompiledPolicy
from vigil_fastapi.load_config import load_config


class ConfigFile(unittest.TestCase):
    def write(self, text: str) -> str:
        d = tempfile.mkdtemp(prefix='vigil-fastapi-config-')
        self.addCleanup(__import__('shutil').rmtree, d, True)
        path = os.path.join(d, 'vigil.yaml')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def refused(self, text: str, env: dict = {}) -> str:  # noqa: B006 - never mutated
        with self.assertRaises(VigilConfigError) as caught:
            load_config(self.write(text), env)
        return str(caught.exception)

    def test_environment_references_are_expanded_in_values(self) -> None:
        text = 'capture:\n  max_body_bytes: ${MAX:-4kb}\nrules:\n  - name: ${NAME}\n    match: { path: /a }\n    sample: ${SAMPLE}\n'
        loaded = load_config(self.write(text), {'NAME': 'from-env', 'SAMPLE': '0'})
        self.assertEqual(loaded.max_body_bytes, 4096)
        self.assertEqual(loaded.policy.rules[0]['name'], 'from-env')
        # A whole plain reference takes its value's type: sample is the number 0, not the string "0".
        self.assertEqual(loaded.policy.decide('GET', '/a').sample, 0)

    def test_an_unset_variable_without_a_default_is_named(self) -> None:
        message = self.refused('rules:\n  - name: ${MISSING}\n    match: { path: /a }\n')
        self.assertIn(':2:11: rules[0].name uses environment variable MISSING, which is not set', message)

    def test_yaml_1_2_scalars_yes_is_a_string(self) -> None:
        message = self.refused('rules:\n  - name: a\n    match: { path: /a }\n    keep_errors: yes\n')
        self.assertIn(':4:18: rules[0].keep_errors: must be boolean', message)

    def test_duplicate_keys_are_refused(self) -> None:
        message = self.refused('rules:\n  - name: a\n    name: b\n    match: { path: /a }\n')
        self.assertIn('duplicate key rules[0].name (first set on line 2)', message)

    def test_compile_problems_are_placed_in_the_file(self) -> None:
        message = self.refused('rules:\n  - name: a\n    match: { path: /a }\n  - name: a\n    match: { path: /b }\n')
        self.assertIn(':4:11: rules[1].name: rule name "a" is already used by rules[0]', message)
        message = self.refused('rules:\n  - name: a\n    match: { path: /a/b**/c }\n')
        self.assertIn(':3:20: rules[0].match.path: "/a/b**/c": "**" must be a whole segment', message)
        message = self.refused('rules:\n  - name: a\n    match: { path: /a }\n    redact: { json_fields: [$.a.] }\n')
        self.assertIn('rules[0].redact.json_fields[0]: "$.a.": empty name at offset 4', message)
        message = self.refused('rules:\n  - name: a\n    match: { path: /a }\n    labels: { route: "header:X-Route" }\n')
        self.assertIn('rules[0].labels.route: "route" is a built-in dimension', message)

    def test_schema_problems_are_all_listed(self) -> None:
        message = self.refused('rules:\n  - name: a\n    match: { path: a, verbs: [GET] }\n    sample: 2\n    restrict: [body]\n')
        for fragment in ('rules[0].match.verbs: unknown key (allowed here: path, methods)', 'rules[0].match.path: "a" must match ^/',
                         'rules[0].sample: must be <= 1', 'rules[0].restrict[0]: must be one of "request_body", "response_body", "headers"'):
            self.assertIn(fragment, message)

    def test_no_rules_key_and_a_bad_byte_size_are_refused(self) -> None:
        self.assertIn('no "rules" key', self.refused('capture: {}\n'))
        self.assertIn('capture.max_body_bytes: invalid byte size', self.refused('capture: { max_body_bytes: lots }\nrules: []\n'))

    def test_a_missing_file_is_named(self) -> None:
        with self.assertRaises(VigilConfigError) as caught:
            load_config('/nonexistent/vigil.yaml', {})
        self.assertIn('/nonexistent/vigil.yaml: cannot read the config file', str(caught.exception))


class DecisionCache(unittest.TestCase):
    def test_decisions_are_cached_per_method_and_path_and_bounded(self) -> None:
        policy = CompiledPolicy([{'name': 'a', 'match': {'path': '/users/*'}, 'redact': {'query_params': ['t']}}], cache_size=50)
        first = policy.decide('GET', '/users/1?t=1')
        self.assertIs(policy.decide('GET', '/users/1?t=2'), first)  # the query plays no part
        self.assertEqual(first.matched_rules, ('a',))
        self.assertEqual(policy.decide('POST', '/USERS/1').matched_rules, ('a',))
        for i in range(500):
            policy.decide('GET', '/users/%d' % i)
        self.assertEqual(policy.cached_routes, 50)


if __name__ == '__main__':
    unittest.main()

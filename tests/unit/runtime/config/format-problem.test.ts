import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatConfigError, formatProblem, formatProblems } from '../../../../runtime/config/format-problem.js';
import { ConfigError, type ConfigProblem } from '../../../../runtime/config/errors.js';

const unknownKey: ConfigProblem = {
  code: 'VIGIL_ERR_CONFIG_UNKNOWN_KEY', file: '/srv/app/vigil.yaml', line: 14, column: 9,
  keyPath: 'rules[2].redact.json_feilds', message: 'unknown key rules[2].redact.json_feilds', suggestion: 'json_fields',
};
const wrongType: ConfigProblem = {
  code: 'VIGIL_ERR_CONFIG_TYPE', file: '/srv/app/vigil.yaml', line: 3, column: 11,
  keyPath: 'control_plane.listen', message: 'control_plane.listen must be string or integer, got boolean',
};

test('file:line:column: message, with the suggestion as a question', () => {
  assert.is(formatProblem(unknownKey, { cwd: '/srv/app' }), 'vigil.yaml:14:9: unknown key rules[2].redact.json_feilds (did you mean json_fields?)');
  assert.is(formatProblem(wrongType, { cwd: '/srv/app' }), 'vigil.yaml:3:11: control_plane.listen must be string or integer, got boolean');
});

test('a file outside the working directory keeps its absolute path', () => {
  assert.is(formatProblem(wrongType, { cwd: '/elsewhere' }), '/srv/app/vigil.yaml:3:11: control_plane.listen must be string or integer, got boolean');
  assert.match(formatProblem(wrongType, { cwd: '/srv/app/sub' }), /^\/srv\/app\/vigil\.yaml:3:11/);
});

test('a problem without a position shows the file only', () => {
  assert.is(formatProblem({ ...wrongType, line: 0, column: 0 }, { cwd: '/' }), 'srv/app/vigil.yaml: control_plane.listen must be string or integer, got boolean');
});

test('one line per problem, in order; the error message is the same text', () => {
  const text = formatProblems([unknownKey, wrongType], { cwd: '/srv/app' });
  assert.is(text.split('\n').length, 2);
  assert.match(text.split('\n')[1], 'vigil.yaml:3:11');
  const err = new ConfigError([unknownKey, wrongType]);
  assert.is(formatConfigError(err, { cwd: '/srv/app' }), text);
  assert.is(err.message, formatProblems([unknownKey, wrongType]));
  assert.is(err.problems.length, 2);
});

test.run();

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VigilError } from '@vigil/plugin-sdk';
import { loadConfigFile, loadConfigText } from '../../../../runtime/config/load-yaml.js';
import { ConfigError, type ConfigProblem } from '../../../../runtime/config/errors.js';
import { fixture } from '../../../support/paths.js';
import { tempDir } from '../../../support/tmp.js';

function problemsOf(run: () => unknown): ConfigProblem[] {
  try {
    run();
  } catch (err) {
    assert.instance(err, ConfigError);
    return (err as ConfigError).problems;
  }
  assert.unreachable('expected a ConfigError');
  return [];
}

test('a valid file loads with its path, directory and data', () => {
  const loaded = loadConfigFile(fixture('config/valid.yaml'), {});
  assert.is(loaded.file, fixture('config/valid.yaml'));
  assert.is(loaded.dir, fixture('config'));
  assert.is(loaded.data.data_dir, './.vigil');
  assert.equal(loaded.data.plugins, [{ use: './examples/hello-plugin', with: { greeting: 'hi' } }]);
});

test('locate points at values and keys, 1-based', () => {
  const loaded = loadConfigFile(fixture('config/valid.yaml'), {});
  assert.equal(loaded.locate(['control_plane', 'listen']), { line: 7, column: 11 });
  assert.equal(loaded.locate(['control_plane', 'listen'], 'key'), { line: 7, column: 3 });
  assert.equal(loaded.locate(['plugins', 0, 'with', 'greeting']), { line: 20, column: 17 });
  assert.equal(loaded.locate(['plugins', 0], 'key'), { line: 18, column: 5 });
  assert.is(loaded.locate(['control_plane', 'nope']), undefined);
  assert.is(loaded.locate(['plugins', 5]), undefined);
});

test('env: set, unset with a default, quoted, embedded and escaped', () => {
  const loaded = loadConfigFile(fixture('config/env.yaml'), { VIGIL_TEST_TOKEN: 's3cret', VIGIL_TEST_DIR: '/var/lib/vigil' });
  const cp = loaded.data.control_plane as Record<string, unknown>;
  assert.is(cp.token, 's3cret');
  assert.is(cp.listen, 9095, 'a plain ${…} with a numeric default is a number');
  assert.is(cp.metrics_auth, true, 'a plain ${…} reading true is a boolean');
  assert.is(loaded.data.data_dir, '9095', 'a quoted ${…} stays a string');
  assert.equal(loaded.data.storage, { url: 'sqlite:/var/lib/vigil/vigil.db' });
  assert.is((loaded.data.plugins as { with: { greeting: string } }[])[0].with.greeting, 'costs ${HOME} dollars');
});

test('env: the value of a set variable wins over the default, and keeps its type in a plain scalar', () => {
  const loaded = loadConfigFile(fixture('config/env.yaml'), { VIGIL_TEST_TOKEN: 't', VIGIL_TEST_PORT: '7000', VIGIL_TEST_METRICS_AUTH: 'false' });
  const cp = loaded.data.control_plane as Record<string, unknown>;
  assert.is(cp.listen, 7000);
  assert.is(cp.metrics_auth, false);
  assert.is(loaded.data.data_dir, '7000');
});

test('env: a substituted value never becomes YAML structure', () => {
  const loaded = loadConfigText('a: ${V}\nb: ${W}\nc: ${X}\n', '/x/v.yaml', { V: 'k: v', W: '[1, 2]', X: '5 # not a comment' });
  assert.equal(loaded.data, { a: 'k: v', b: '[1, 2]', c: '5 # not a comment' });
});

test('env: an explicit !!str tag keeps a plain reference a string', () => {
  const loaded = loadConfigText('port: !!str ${P:-8080}\n', '/x/v.yaml', {});
  assert.is(loaded.data.port, '8080');
});

test('env: unset variables without a default are problems at their values, naming variable and key path', () => {
  const problems = problemsOf(() => loadConfigFile(fixture('config/env-missing.yaml'), {}));
  assert.is(problems.length, 2);
  assert.equal(
    problems.map((p) => [p.code, p.line, p.column, p.keyPath]),
    [['VIGIL_ERR_CONFIG_ENV', 3, 10, 'control_plane.token'], ['VIGIL_ERR_CONFIG_ENV', 5, 10, 'plugins[0].use']],
  );
  assert.match(problems[0].message, 'VIGIL_TEST_UNSET_TOKEN');
  assert.match(problems[0].message, 'control_plane.token');
  assert.match(problems[1].message, 'VIGIL_TEST_UNSET_PLUGIN');
});

test('env: keys are never interpolated', () => {
  const loaded = loadConfigText('${K}: 1\n', '/x/v.yaml', { K: 'changed' });
  assert.equal(loaded.data, { '${K}': 1 });
});

test('env: a malformed reference is a problem', () => {
  const [problem] = problemsOf(() => loadConfigText('a:\n  b: ${not valid}\n', '/x/v.yaml', {}));
  assert.is(problem.code, 'VIGIL_ERR_CONFIG_ENV');
  assert.is(problem.keyPath, 'a.b');
  assert.is(problem.line, 2);
});

test('a duplicate key is a problem at the second occurrence, naming the first', () => {
  const problems = problemsOf(() => loadConfigFile(fixture('config/duplicate-key.yaml'), {}));
  assert.is(problems.length, 1);
  assert.is(problems[0].code, 'VIGIL_ERR_CONFIG_DUPLICATE_KEY');
  assert.equal([problems[0].line, problems[0].column], [6, 1]);
  assert.is(problems[0].keyPath, 'control_plane');
  assert.match(problems[0].message, 'line 1');
});

test('duplicate keys are found at any depth', () => {
  const [problem] = problemsOf(() => loadConfigText('a:\n  - x: 1\n    x: 2\n', '/x/v.yaml', {}));
  assert.is(problem.keyPath, 'a[0].x');
  assert.equal([problem.line, problem.column], [3, 5]);
});

test('a YAML syntax error is a problem with its line', () => {
  const problems = problemsOf(() => loadConfigFile(fixture('config/syntax-error.yaml'), {}));
  assert.is(problems[0].code, 'VIGIL_ERR_CONFIG_YAML');
  assert.is(problems[0].line, 5);
  assert.is(problems[0].column, 11);
  assert.match(problems[0].message, 'YAML syntax error');
});

test('a ${…} inside a flow mapping gets a hint about quoting', () => {
  const [problem] = problemsOf(() => loadConfigText('lockout: { max_failures: ${N} }\n', '/x/v.yaml', { N: '3' }));
  assert.is(problem.code, 'VIGIL_ERR_CONFIG_YAML');
  assert.match(problem.message, 'must be quoted');
});

test('an empty file is a problem at 1:1', () => {
  const [problem] = problemsOf(() => loadConfigFile(fixture('config/empty.yaml'), {}));
  assert.equal([problem.code, problem.line, problem.column], ['VIGIL_ERR_CONFIG_EMPTY', 1, 1]);
});

test('a top level that is not a mapping is a problem', () => {
  const [problem] = problemsOf(() => loadConfigFile(fixture('config/top-level-list.yaml'), {}));
  assert.is(problem.code, 'VIGIL_ERR_CONFIG_TYPE');
  assert.is(problem.line, 1);
  assert.match(problem.message, 'got a list');
  assert.is(problemsOf(() => loadConfigText('42\n', '/x/v.yaml', {}))[0].code, 'VIGIL_ERR_CONFIG_TYPE');
});

test('several documents in one file are rejected', () => {
  const [problem] = problemsOf(() => loadConfigText('a: 1\n---\nb: 2\n', '/x/v.yaml', {}));
  assert.is(problem.code, 'VIGIL_ERR_CONFIG_YAML');
  assert.match(problem.message, 'several documents');
});

test('a missing file is a ConfigError with a READ problem', () => {
  const dir = tempDir();
  try {
    const problems = problemsOf(() => loadConfigFile(join(dir.path, 'missing.yaml'), {}));
    assert.equal([problems[0].code, problems[0].line], ['VIGIL_ERR_CONFIG_READ', 0]);
    assert.match(problems[0].message, 'no such file');
  } finally {
    dir.cleanup();
  }
});

test('a relative path is resolved from the working directory', () => {
  const dir = tempDir();
  const cwd = process.cwd();
  try {
    writeFileSync(join(dir.path, 'vigil.yaml'), 'data_dir: here\n');
    process.chdir(dir.path);
    const loaded = loadConfigFile('vigil.yaml', {});
    assert.is(loaded.file, join(process.cwd(), 'vigil.yaml'));
    assert.is(loaded.data.data_dir, 'here');
  } finally {
    process.chdir(cwd);
    dir.cleanup();
  }
});

test('anchors, aliases and merge keys load', () => {
  const loaded = loadConfigText('base: &b { k: 1 }\nderived:\n  <<: *b\n  j: 2\nsame: *b\n', '/x/v.yaml', {});
  assert.equal(loaded.data, { base: { k: 1 }, derived: { k: 1, j: 2 }, same: { k: 1 } });
});

test('ConfigError is a VigilError with the stable code and all problems in its message', () => {
  try {
    loadConfigFile(fixture('config/env-missing.yaml'), {});
    assert.unreachable();
  } catch (err) {
    assert.instance(err, VigilError);
    assert.is((err as VigilError).code, 'VIGIL_ERR_CONFIG_INVALID');
    const lines = (err as Error).message.split('\n');
    assert.is(lines.length, 2);
    assert.match(lines[0], /env-missing\.yaml:3:10: /);
  }
});

test.run();

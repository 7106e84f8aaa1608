// Issue 36: the Java client (clients/java). It compiles with javac alone (--release 17, every lint warning an error),
// its plain-Java tests pass, and its conformance driver passes every scenario of the driver protocol against a
// scripted ingest server: batching, 413 splitting, Retry-After, 5xx retries, no retry on 400 and 401, the bounded buffer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../support/paths.js';
import { mustRun, runTool, toolchainPresent } from '../support/client-toolchain.js';
import { registerDriverScenarios, type RunDriver } from '../support/client-driver-scenarios.js';
import { tempDir } from '../support/tmp.js';

const test = suite('Java client');
const root = fromRoot('clients/java');

function javaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? javaFiles(p) : name.endsWith('.java') ? [p] : [];
  });
}

if (toolchainPresent('Java client', [['javac', '-version'], ['java', '-version']], 'default-jdk-headless')) {
  const out = tempDir('vigil-java-');
  const classes = join(out.path, 'classes');
  const testClasses = join(out.path, 'test-classes');
  let runDriver: RunDriver;

  test.before(async () => {
    const sources = [...javaFiles(join(root, 'src/main/java')), ...javaFiles(join(root, 'src/conformance/java'))];
    await mustRun('javac', ['--release', '17', '-Xlint:all', '-Werror', '-d', classes, ...sources], { cwd: root });
    runDriver = (input, env) => runTool('java', ['-cp', classes, 'dev.vigil.conformance.ConformanceDriver'], { cwd: root, env, input: JSON.stringify(input), timeoutMs: 60_000 });
  });
  test.after(() => out.cleanup());

  test('the client imports nothing outside the JDK', () => {
    for (const file of javaFiles(join(root, 'src/main/java'))) {
      const source = readFileSync(file, 'utf8');
      for (const [, name] of source.matchAll(/^import (?:static )?([\w.]+)/gm)) {
        assert.ok(/^(java|dev\.vigil)\./.test(name), `${file} imports ${name}`);
      }
    }
  });

  test('the plain-Java tests pass', async () => {
    await mustRun('javac', ['--release', '17', '-Xlint:all', '-Werror', '-cp', classes, '-d', testClasses, ...javaFiles(join(root, 'src/test/java'))], { cwd: root });
    const ran = await mustRun('java', ['-cp', `${classes}:${testClasses}`, 'dev.vigil.client.TestRunner'], { cwd: root, timeoutMs: 120_000 });
    assert.match(ran, /^\d+ passed, 0 failed$/m);
  });

  registerDriverScenarios(test, 'Java', () => runDriver);
}

test.run();

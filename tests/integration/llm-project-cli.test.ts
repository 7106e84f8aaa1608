// `vigil project …` as a user runs it: on the store the config file names, with the file's projects winning.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-llm-cli-');
const env = { FROM_FILE_KEY: 'from-file-key-0123456789' };
writeConfig(work.path, `data_dir: ./data
llm:
  projects:
    - name: from-file
      key: \${FROM_FILE_KEY}
`);
const project = (...args: string[]) => runVigil(['project', ...args], { cwd: work.path, env });

test.after(() => work.cleanup());

test('create prints the key once, on its own line; list shows hints, never keys', async () => {
  const made = await project('create', 'checkout-bot', '-config', 'vigil.yaml');
  assert.is(made.code, 0, made.stderr);
  const lines = made.stdout.trim().split('\n');
  const key = lines.at(-1)!;
  assert.match(key, /^vk_[A-Za-z0-9_-]{43}$/);
  assert.is(made.stdout.split(key).length, 2, 'the key is printed exactly once');
  const list = await project('list', '-config', 'vigil.yaml');
  assert.is(list.code, 0, list.stderr);
  assert.match(list.stdout, /^NAME +FROM +KEYS +CREATED$/m);
  assert.match(list.stdout, /checkout-bot +store +vk_/);
  assert.match(list.stdout, /from-file +config file +from-fi…/);
  assert.not.ok(list.stdout.includes(key));
  const json = JSON.parse((await project('list', '-config', 'vigil.yaml', '--json')).stdout);
  assert.equal(json.map((p: { name: string }) => p.name), ['checkout-bot', 'from-file']);
  const again = await project('create', 'checkout-bot', '-config', 'vigil.yaml');
  assert.is(again.code, 1);
  assert.match(again.stderr, /exists already/);
  assert.is((await project('create', 'bad name', '-config', 'vigil.yaml')).code, 1);
});

test('rotate-key: a new key, the old ones kept for the grace period; delete removes the project', async () => {
  const rotated = await project('rotate-key', 'checkout-bot', '--grace', '24h', '-config', 'vigil.yaml');
  assert.is(rotated.code, 0, rotated.stderr);
  assert.match(rotated.stdout.trim().split('\n').at(-1)!, /^vk_/);
  assert.match(rotated.stdout, /keep working until \d{4}-/);
  const list = await project('list', '-config', 'vigil.yaml');
  assert.match(list.stdout, /checkout-bot +store +vk_\S+ \(until \d{4}-\S+\), vk_/);
  assert.is((await project('rotate-key', 'checkout-bot', '--grace', 'soon', '-config', 'vigil.yaml')).code, 1);
  const fromFile = await project('rotate-key', 'from-file', '-config', 'vigil.yaml');
  assert.is(fromFile.code, 1);
  assert.match(fromFile.stderr, /declared in the config file/);
  const deleted = await project('delete', 'checkout-bot', '-config', 'vigil.yaml');
  assert.is(deleted.code, 0, deleted.stderr);
  assert.not.match((await project('list', '-config', 'vigil.yaml')).stdout, /checkout-bot/);
  assert.is((await project('delete', 'checkout-bot', '-config', 'vigil.yaml')).code, 1);
  assert.is((await project('delete', 'from-file', '-config', 'vigil.yaml')).code, 1);
});

test('usage and config errors exit 2, naming the file and line', async () => {
  assert.is((await project('list')).code, 2);
  assert.is((await project('launch', '-config', 'vigil.yaml')).code, 2);
  assert.is((await project('create', '-config', 'vigil.yaml')).code, 2);
  assert.is((await project('list', 'extra', '-config', 'vigil.yaml')).code, 2);
  assert.is((await project('list', '--grace', '1h', '-config', 'vigil.yaml')).code, 2);
  writeConfig(work.path, 'data_dir: ./data\nllm:\n  projects:\n    - name: x\n      keyy: abc\n', 'typo.yaml');
  const typo = await project('list', '-config', 'typo.yaml');
  assert.is(typo.code, 2);
  assert.match(typo.stderr, /typo\.yaml:5:\d+/);
  assert.match(typo.stderr, /keyy/);
  writeConfig(work.path, 'data_dir: ./data\nllm:\n  projects:\n    - { name: x }\n', 'nokey.yaml');
  const noKey = await project('list', '-config', 'nokey.yaml');
  assert.is(noKey.code, 2);
  assert.match(noKey.stderr, /exactly one of key/);
  writeConfig(work.path, 'data_dir: ./data\n', 'off.yaml');
  const off = await project('list', '-config', 'off.yaml');
  assert.is(off.code, 2);
  assert.match(off.stderr, /no llm section/);
});

test.run();

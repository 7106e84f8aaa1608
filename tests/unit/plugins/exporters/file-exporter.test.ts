import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPermanent } from '@vigil/plugin-sdk';
import { createFileExporter } from '../../../../plugins/exporters/file-exporter.js';
import { tempDir } from '../../../support/tmp.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';
import { governedRecords } from './support/governed-records.js';

const signal = () => new AbortController().signal;

test('writes one JSON line per record, UTF-8, appending batch after batch', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'export', 'records.jsonl');
  const exporter = createFileExporter({ name: 'archive', path }, { log: recordingLogger() });
  const first = governedRecords(3);
  const second = governedRecords(2, 3);
  await exporter.send(first, signal());
  await exporter.send(second, signal());
  await exporter.shutdown();
  const text = readFileSync(path, 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text.split('\n').slice(0, -1);
  assert.is(lines.length, 5);
  assert.equal(lines.map((l) => JSON.parse(l)), [...first, ...second]);
  assert.match(text, 'café ✓');
  dir.cleanup();
});

test('rotation by size and count through the exporter keeps the newest records', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const exporter = createFileExporter({ name: 'archive', path, maxBytes: 2_000, maxFiles: 2 }, { log: recordingLogger() });
  for (let i = 0; i < 40; i += 4) await exporter.send(governedRecords(4, i), signal());
  await exporter.shutdown();
  const read = (p: string) => readFileSync(p, 'utf8').split('\n').slice(0, -1).map((l) => JSON.parse(l).id as string);
  const ids = [...read(join(dir.path, 'records.2.jsonl')), ...read(join(dir.path, 'records.1.jsonl')), ...read(path)];
  assert.is(ids[ids.length - 1], 'rec-39');
  assert.ok(ids.length < 40, 'older records were rotated away');
  const first = Number(ids[0].slice(4));
  assert.equal(ids, Array.from({ length: ids.length }, (_, i) => `rec-${first + i}`));
  dir.cleanup();
});

test('shutdown while a large batch is being written leaves whole lines only, and later sends are refused as permanent', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const exporter = createFileExporter({ name: 'archive', path }, { log: recordingLogger() });
  const sending = exporter.send(governedRecords(5_000), signal());
  await exporter.shutdown();
  await sending;
  const text = readFileSync(path, 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text.split('\n').slice(0, -1);
  assert.is(lines.length, 5_000);
  for (const l of lines) JSON.parse(l);
  try {
    await exporter.send(governedRecords(1), signal());
    assert.unreachable();
  } catch (err) {
    assert.ok(isPermanent(err));
  }
  await exporter.shutdown();
  dir.cleanup();
});

test('a record that cannot be serialised is skipped and logged; the rest of its batch is written', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const log = recordingLogger();
  const exporter = createFileExporter({ name: 'archive', path }, { log });
  await exporter.send([{ id: 'a' }, { id: 'b', big: 1n }, { id: 'c' }], signal());
  await exporter.shutdown();
  assert.equal(readFileSync(path, 'utf8').split('\n').slice(0, -1).map((l) => JSON.parse(l).id), ['a', 'c']);
  assert.ok(log.entries.some((e) => e.level === 'warn' && /not serialisable/.test(e.msg)));
  dir.cleanup();
});

test('a path that cannot be written makes send fail with a retryable error', async () => {
  const dir = tempDir();
  const blocker = join(dir.path, 'not-a-dir');
  (await import('node:fs')).writeFileSync(blocker, 'x');
  const exporter = createFileExporter({ name: 'archive', path: join(blocker, 'records.jsonl') }, { log: recordingLogger() });
  try {
    await exporter.send(governedRecords(1), signal());
    assert.unreachable();
  } catch (err) {
    assert.not.ok(isPermanent(err));
    assert.ok(['ENOTDIR', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? ''), String(err));
  }
  await exporter.shutdown();
  dir.cleanup();
});

test.run();

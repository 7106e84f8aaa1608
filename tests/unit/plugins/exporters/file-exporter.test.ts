import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isPermanent } from '@vigil/plugin-sdk';
import { createFileExporter } from '../../../../plugins/exporters/file-exporter.js';
import { tempDir } from '../../../support/tmp.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';
import { governedRecords, textsOf } from './support/governed-records.js';

const signal = () => new AbortController().signal;

test('writes each record\'s JSON text on a line as it is, UTF-8, appending batch after batch', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'export', 'records.jsonl');
  const exporter = createFileExporter({ name: 'archive', path }, { log: recordingLogger() });
  const first = governedRecords(3);
  // A stored record keeps its bodies' own formatting: a parse and a stringify would turn 1.50 into 1.5.
  const second = [...governedRecords(1, 3), { json: '{"id":"rec-4", "amount": 1.50, "note": "caf\\u00e9"}' }];
  await exporter.send(first, signal());
  await exporter.send(second, signal());
  await exporter.shutdown();
  const text = readFileSync(path, 'utf8');
  assert.ok(text.endsWith('\n'));
  assert.is(text, textsOf([...first, ...second]).map((t) => t + '\n').join(''));
  assert.match(text, 'café ✓');
  dir.cleanup();
});

test('JSON text with raw line breaks between its tokens still takes one line, with the same value', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const exporter = createFileExporter({ name: 'archive', path }, { log: recordingLogger() });
  const formatted = '{\n  "id": "a",\r\n  "text": "line\\nbreak"\r}';
  await exporter.send([{ json: formatted }, { json: '{"id":"b"}' }], signal());
  await exporter.shutdown();
  const lines = readFileSync(path, 'utf8').split('\n').slice(0, -1);
  assert.is(lines.length, 2);
  assert.equal(JSON.parse(lines[0]), JSON.parse(formatted));
  assert.is(lines[1], '{"id":"b"}');
  dir.cleanup();
});

test('rotation by size and count through the exporter keeps the newest records', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const exporter = createFileExporter({ name: 'archive', path, maxBytes: 2_000, maxFiles: 2 }, { log: recordingLogger() });
  for (let i = 0; i < 40; i += 4) await exporter.send(governedRecords(4, i), signal());
  await exporter.shutdown();
  const read = (p: string) => readFileSync(p, 'utf8').split('\n').slice(0, -1).map((l) => JSON.parse(l).id as string);
  const files = [join(dir.path, 'records.2.jsonl'), join(dir.path, 'records.1.jsonl'), path];
  // Bytes, not characters: each line holds non-ASCII text (`café ✓`), so counting characters would overshoot.
  for (const f of files) assert.ok(statSync(f).size <= 2_000, `${f} has ${statSync(f).size} bytes`);
  assert.ok(statSync(files[1]).size > 2_000 - Buffer.byteLength(governedRecords(1, 39)[0].json + '\n'), 'a rotated file was filled up to the limit');
  const ids = files.flatMap(read);
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

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RotatingFile, rotatedPath } from '../../../../plugins/exporters/rotating-file.js';
import { tempDir } from '../../../support/tmp.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';

const line = (n: number, pad = 0) => Buffer.from(JSON.stringify({ n, pad: 'x'.repeat(pad) }) + '\n');
const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { n: number });

test('rotatedPath puts the number before the extension', () => {
  assert.is(rotatedPath('/d/records.jsonl', 1), '/d/records.1.jsonl');
  assert.is(rotatedPath('/d/records.jsonl', 12), '/d/records.12.jsonl');
  assert.is(rotatedPath('/d/records', 2), '/d/records.2');
  assert.is(rotatedPath('/d.x/records', 3), '/d.x/records.3');
});

test('rotates by size and keeps only maxFiles rotated files, newest first, each made of whole lines', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'out', 'records.jsonl');
  const file = new RotatingFile({ path, maxBytes: 300, maxFiles: 2, log: recordingLogger() });
  for (let n = 0; n < 60; n += 3) await file.append([line(n, 20), line(n + 1, 20), line(n + 2, 20)]);
  await file.close();
  const files = [rotatedPath(path, 2), rotatedPath(path, 1), path];
  for (const f of files) {
    assert.ok(existsSync(f), `${f} exists`);
    assert.ok(statSync(f).size <= 300, `${f} is ${statSync(f).size} bytes`);
    assert.ok(readFileSync(f, 'utf8').endsWith('\n'));
  }
  assert.not.ok(existsSync(rotatedPath(path, 3)));
  const kept = files.flatMap(linesOf).map((r) => r.n);
  // The kept files hold the newest records, contiguous and in order, ending with the last one.
  assert.is(kept[kept.length - 1], 59);
  assert.equal(kept, Array.from({ length: kept.length }, (_, i) => 60 - kept.length + i));
  dir.cleanup();
});

test('a line larger than maxBytes gets a file of its own', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const file = new RotatingFile({ path, maxBytes: 100, maxFiles: 3, log: recordingLogger() });
  await file.append([line(1), line(2, 500), line(3)]);
  await file.close();
  assert.equal(linesOf(rotatedPath(path, 2)).map((r) => r.n), [1]);
  assert.equal(linesOf(rotatedPath(path, 1)).map((r) => r.n), [2]);
  assert.equal(linesOf(path).map((r) => r.n), [3]);
  dir.cleanup();
});

test('maxFiles 0 keeps no rotated file', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const file = new RotatingFile({ path, maxBytes: 60, maxFiles: 0, log: recordingLogger() });
  for (let n = 0; n < 10; n++) await file.append([line(n)]);
  await file.close();
  assert.not.ok(existsSync(rotatedPath(path, 1)));
  assert.equal(linesOf(path).map((r) => r.n), [9]);
  dir.cleanup();
});

test('appending to an existing file continues it and counts its size towards rotation', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  writeFileSync(path, line(0, 50));
  const file = new RotatingFile({ path, maxBytes: 100, maxFiles: 1, log: recordingLogger() });
  await file.append([line(1, 50)]);
  await file.close();
  assert.equal(linesOf(rotatedPath(path, 1)).map((r) => r.n), [0]);
  assert.equal(linesOf(path).map((r) => r.n), [1]);
  dir.cleanup();
});

test('a partial last line left by a crash is cut before appending, and the cut is logged', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  writeFileSync(path, Buffer.concat([line(0), Buffer.from('{"n":1,"pad":"cut sh')]));
  const log = recordingLogger();
  const file = new RotatingFile({ path, maxBytes: 10_000, maxFiles: 1, log });
  await file.append([line(2)]);
  await file.close();
  assert.equal(linesOf(path).map((r) => r.n), [0, 2]);
  assert.ok(log.entries.some((e) => e.level === 'warn' && e.fields.bytes === 20));
  dir.cleanup();
});

test('a file holding only a partial line longer than the read window is emptied', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  writeFileSync(path, 'y'.repeat(200_000));
  const file = new RotatingFile({ path, maxBytes: 1_000_000, maxFiles: 1, log: recordingLogger() });
  await file.append([line(1)]);
  await file.close();
  assert.equal(linesOf(path).map((r) => r.n), [1]);
  dir.cleanup();
});

test('appends run in order, close waits for them, and an append after close is refused', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const file = new RotatingFile({ path, maxBytes: 1_000_000, maxFiles: 1, log: recordingLogger() });
  const writes = Array.from({ length: 50 }, (_, i) => file.append([line(i, 1000)]));
  const closed = file.close();
  await Promise.all([...writes, closed]);
  assert.equal(linesOf(path).map((r) => r.n), Array.from({ length: 50 }, (_, i) => i));
  await assert.not.throws(() => file.close());
  try { await file.append([line(99)]); assert.unreachable(); } catch (err) { assert.match((err as Error).message, 'closed'); }
  dir.cleanup();
});

test('an append whose signal aborted before its turn writes nothing', async () => {
  const dir = tempDir();
  const path = join(dir.path, 'records.jsonl');
  const file = new RotatingFile({ path, maxBytes: 1_000_000, maxFiles: 1, log: recordingLogger() });
  const c = new AbortController();
  const first = file.append([line(1)]);
  const second = file.append([line(2)], c.signal);
  c.abort(new Error('attempt timed out'));
  await first;
  try { await second; assert.unreachable(); } catch (err) { assert.is((err as Error).message, 'attempt timed out'); }
  await file.close();
  assert.equal(linesOf(path).map((r) => r.n), [1]);
  dir.cleanup();
});

test.run();

// `vigil mock`'s memory is bounded: items per collection (--max-items), bytes of all items (--max-bytes) and the body
// of one request (--max-body). Past a bound a write is answered 507 (a body, 413) with a JSON error and the state is
// kept as it was; a reset gives the room back. The RSS of the real process stays under a stated ceiling however many
// big items are sent, with and without resets between them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startMockProcess, type MockProcess } from '../support/mock-process.js';
import { waitFor } from '../support/net.js';
import { rawExchange } from '../support/raw-http.js';
import { tempDir } from '../support/tmp.js';
import { runVigil } from '../support/vigil-process.js';

const bounds = suite('vigil mock bounds');
const work = tempDir('vigil-mock-bounds-');
const SPEC = join(work.path, 'notes.json');

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const note = { $ref: '#/components/schemas/Note' };
const collection = (name: string) => ({
  [`/${name}`]: {
    get: { responses: { 200: { description: 'ok', ...json({ type: 'array', items: note }) } } },
    post: {
      requestBody: { required: true, ...json({ $ref: '#/components/schemas/NoteIn' }) },
      responses: { 201: { description: 'created', ...json(note) }, 400: { description: 'bad', ...json({ $ref: '#/components/schemas/Problem' }) } },
    },
  },
  [`/${name}/{id}`]: {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    get: { responses: { 200: { description: 'ok', ...json(note) }, 404: { description: 'missing', ...json({ $ref: '#/components/schemas/Problem' }) } } },
    patch: { requestBody: { required: true, ...json({ type: 'object', properties: { text: { type: 'string' } } }) }, responses: { 200: { description: 'ok', ...json(note) } } },
    put: { requestBody: { required: true, ...json({ $ref: '#/components/schemas/NoteIn' }) }, responses: { 200: { description: 'ok', ...json(note) } } },
    delete: { responses: { 204: { description: 'gone' } } },
  },
});
writeFileSync(SPEC, JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    ...collection('notes'),
    ...collection('tags'),
    '/echo': { post: { requestBody: json({ type: 'object' }), responses: { 200: { description: 'ok', ...json({ type: 'object', properties: { ok: { type: 'boolean' } } }) } } } },
  },
  components: {
    schemas: {
      Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer' }, text: { type: 'string' } } },
      NoteIn: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
      // The API's error shape has no 507 or 413: the mock's own bounds answer in its default JSON error.
      Problem: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
}));

interface Answer { status: number; body: any; reason: string | null; mode: string | null }

async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, reason: res.headers.get('x-vigil-mock-reason'), mode: res.headers.get('x-vigil-mock') };
}

const reset = async (base: string) => assert.is((await fetch(`${base}/__vigil/reset`, { method: 'POST' })).status, 204);

/** The resident set of a process, in bytes (Linux). */
const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Sends `count` POSTs of `text` to `path`, `parallel` at a time, running `between` after each `every` of them. The statuses, counted. */
async function flood(base: string, path: string, text: string, count: number, between?: { every: number; run: () => Promise<void> }) {
  const statuses = new Map<number, number>();
  const body = JSON.stringify({ text });
  const step = between?.every ?? count;
  for (let done = 0; done < count; done += step) {
    let left = Math.min(step, count - done);
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (left > 0) {
        left--;
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }));
    await between?.run();
  }
  return statuses;
}

let mock: MockProcess | undefined;
bounds.after.each(async () => { await mock?.stop('SIGTERM'); mock = undefined; });
bounds.after(() => work.cleanup());

bounds('a collection past --max-items answers 507 with a JSON error and keeps its items; a delete or a reset makes room', async () => {
  mock = await startMockProcess(SPEC, ['--max-items', '3', '--quiet']);
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const made = await call(mock.url, 'POST', '/notes', { text: `note ${i}` });
    assert.is(made.status, 201);
    ids.push(made.body.id);
  }
  const full = await call(mock.url, 'POST', '/notes', { text: 'one too many' });
  assert.is(full.status, 507);
  assert.is(full.mode, 'error');
  assert.is(full.body.error.status, 507);
  assert.is(full.body.error.code, 'VIGIL_ERR_APITOOLS_MOCK_STORAGE_FULL');
  assert.match(full.body.error.message, '/notes holds 3 items');
  assert.match(full.body.error.message, '--max-items 3');
  assert.match(full.body.error.message, '/__vigil/reset');
  assert.match(full.reason!, /^VIGIL_ERR_APITOOLS_MOCK_STORAGE_FULL: .*--max-items/);
  assert.equal((await call(mock.url, 'GET', '/notes')).body.map((n: any) => n.text), ['note 0', 'note 1', 'note 2']);
  // The bound is per collection: another one still takes items.
  assert.is((await call(mock.url, 'POST', '/tags', { text: 'tag' })).status, 201);
  assert.is((await call(mock.url, 'DELETE', `/notes/${ids[0]}`)).status, 204);
  assert.is((await call(mock.url, 'POST', '/notes', { text: 'in the freed place' })).status, 201);
  assert.is((await call(mock.url, 'POST', '/notes', { text: 'full again' })).status, 507);
  await reset(mock.url);
  for (let i = 0; i < 3; i++) assert.is((await call(mock.url, 'POST', '/notes', { text: `after reset ${i}` })).status, 201);
  assert.is((await call(mock.url, 'POST', '/notes', { text: 'full once more' })).status, 507);
});

bounds('--max-bytes bounds the items of every collection together, PUT and PATCH included', async () => {
  mock = await startMockProcess(SPEC, ['--max-bytes', '64kb', '--quiet']);
  const text = 'n'.repeat(20_000);
  const made: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await call(mock.url, 'POST', i === 2 ? '/tags' : '/notes', { text });
    assert.is(r.status, 201, `item ${i}`);
    made.push(r.body.id);
  }
  const full = await call(mock.url, 'POST', '/tags', { text });
  assert.is(full.status, 507);
  assert.is(full.body.error.code, 'VIGIL_ERR_APITOOLS_MOCK_STORAGE_FULL');
  assert.match(full.body.error.message, '--max-bytes 65536');
  // An item that grows past the bound is refused and stays as it was; one that shrinks is taken.
  const grown = await call(mock.url, 'PATCH', `/notes/${made[0]}`, { text: text + 'g'.repeat(10_000) });
  assert.is(grown.status, 507);
  assert.is((await call(mock.url, 'GET', `/notes/${made[0]}`)).body.text, text);
  assert.is((await call(mock.url, 'PUT', `/notes/${made[0]}`, { text: text + text })).status, 507);
  assert.is((await call(mock.url, 'PUT', `/notes/${made[0]}`, { text: 'short' })).status, 200);
  assert.is((await call(mock.url, 'POST', '/notes', { text })).status, 201, 'the shrunk item made room');
  assert.is((await call(mock.url, 'POST', '/notes', { text })).status, 507);
  const usage = async () => ((await call(mock!.url, 'GET', '/__vigil/state')).body as { usage: Record<string, number> }).usage;
  const before = await usage();
  assert.ok(before.bytes > 40_000 && before.bytes <= 65536, `usage ${JSON.stringify(before)}`);
  assert.equal([before.items, before.max_items, before.max_bytes], [4, 1000, 65536]);
  await reset(mock.url);
  assert.equal(await usage(), { items: 0, bytes: 0, max_items: 1000, max_bytes: 65536 });
  for (let i = 0; i < 3; i++) assert.is((await call(mock.url, 'POST', '/notes', { text })).status, 201);
});

bounds('--max-bytes counts what items hold in memory, not their JSON: many small values cost more than their text', async () => {
  mock = await startMockProcess(SPEC, ['--max-bytes', '64kb', '--quiet']);
  // 8 KB of JSON as empty objects is some 2,700 objects: about 130 KB in memory, over the bound by itself.
  const objects = { text: 'small', extra: Array.from({ length: 2700 }, () => ({})) };
  assert.ok(JSON.stringify(objects).length < 9000);
  const r = await call(mock.url, 'POST', '/notes', objects);
  assert.is(r.status, 507);
  assert.match(r.body.error.message, '--max-bytes 65536');
  assert.is((await call(mock.url, 'POST', '/notes', { text: 'small', extra: [{}, {}] })).status, 201);
});

bounds('a body over --max-body is 413 with a JSON error, declared or chunked, on every route', async () => {
  mock = await startMockProcess(SPEC, ['--max-body', '16kb', '--quiet']);
  const fits = JSON.stringify({ text: 'f'.repeat(16 * 1024 - 11) });
  assert.is(Buffer.byteLength(fits), 16 * 1024);
  assert.is((await fetch(`${mock.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: fits })).status, 201);
  const over = { text: 'o'.repeat(16 * 1024) };
  for (const path of ['/notes', '/echo']) {
    const r = await call(mock.url, 'POST', path, over);
    assert.is(r.status, 413, path);
    assert.is(r.body.error.code, 'VIGIL_ERR_APITOOLS_MOCK_BODY_TOO_LARGE');
    assert.match(r.body.error.message, '--max-body 16384');
  }
  // Chunked: counted as it arrives.
  const chunked = await fetch(`${mock.url}/notes`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, duplex: 'half',
    body: new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(JSON.stringify(over))); c.close(); } }),
  } as RequestInit);
  assert.is(chunked.status, 413);
  assert.is(((await chunked.json()) as any).error.code, 'VIGIL_ERR_APITOOLS_MOCK_BODY_TOO_LARGE');
  // A Content-Length over the bound is answered before any of the body arrives.
  const head = `POST /notes HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024 * 1024}\r\n\r\n`;
  const port = Number(new URL(mock.url).port);
  const raw = (await rawExchange(port, head, (got) => got.includes('\r\n\r\n'))).toString('latin1');
  assert.match(raw, /^HTTP\/1\.1 413 /);
  assert.equal((await call(mock.url, 'GET', '/notes')).body.length, 1, 'nothing over the bound was stored');
});

bounds('a body nested deeper than 128 levels is refused with a JSON error; nothing stored, the collection stays servable', async () => {
  mock = await startMockProcess(SPEC, ['--quiet']);
  const nested = (open: string, close: string, depth: number) => `{"text":"deep","x":${open.repeat(depth)}1${close.repeat(depth)}}`;
  for (const body of [nested('{"x":', '}', 60_000), nested('[', ']', 200_000), nested('[', ']', 128)]) {
    const res = await fetch(`${mock.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.is(res.status, 400, body.slice(0, 40));
    // POST /notes declares its 400 in the API's own error shape ({ message }): the code leads the reason header.
    assert.match(((await res.json()) as { message: string }).message, 'deeper than 128');
    assert.match(res.headers.get('x-vigil-mock-reason')!, /^VIGIL_ERR_APITOOLS_MOCK_BODY_TOO_DEEP: /);
  }
  const fits = await fetch(`${mock.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: nested('[', ']', 126) });
  assert.is(fits.status, 201);
  const list = await call(mock.url, 'GET', '/notes');
  assert.is(list.status, 200);
  assert.is(list.body.length, 1);
});

bounds('flags: a bound takes a whole number or a byte size, and --items must fit --max-items', async () => {
  for (const [flags, why] of [
    [['--max-items', '0'], '--max-items'], [['--max-items', 'lots'], '--max-items'], [['--max-bytes', '12 parsecs'], '--max-bytes'],
    [['--max-bytes', '10'], '--max-bytes'], [['--max-body', '-1'], '--max-body'], [['--items', '5', '--max-items', '4'], '--items 5'],
  ] as const) {
    const r = await runVigil(['mock', '--spec', SPEC, '--port', '0', ...flags]);
    assert.is(r.code, 2, `${flags.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, why);
  }
});

bounds('3,000 POSTs of 100 KB: defaults hold RSS growth under 100 MB, and resets between them give the memory back', async () => {
  mock = await startMockProcess(SPEC, ['--quiet']);
  const pid = mock.proc.pid!;
  const text = 'x'.repeat(100 * 1024);
  // Warm the paths first, so the baseline includes what any process serving these requests holds.
  await flood(mock.url, '/tags', 'warm', 50);
  await reset(mock.url);
  const baseline = rssOf(pid);

  const kept = await flood(mock.url, '/notes', text, 3000);
  const accepted = kept.get(201) ?? 0;
  // 16 MiB of items in all: about 160 items of 100 KB, the rest refused.
  assert.ok(accepted >= 150 && accepted <= 170, `accepted ${accepted}`);
  assert.is(kept.get(507), 3000 - accepted);
  const full = rssOf(pid) - baseline;
  assert.ok(full < 100 * 1024 * 1024, `RSS grew ${(full / 2 ** 20).toFixed(0)} MB with the store full`);

  // The reset gives the items' memory back to the system: at least half of the 16 MiB they held.
  await reset(mock.url);
  await waitFor(() => rssOf(pid) - baseline < full - 8 * 1024 * 1024, {
    timeoutMs: 10_000, what: `RSS to fall 8 MB after the reset, from +${(full / 2 ** 20).toFixed(0)} MB`,
  });

  // A reset every 100 POSTs: every one is taken, and what a reset drops does not pile up.
  const cycled = await flood(mock.url, '/notes', text, 3000, { every: 100, run: () => reset(mock!.url) });
  assert.equal([...cycled], [[201, 3000]]);
  // 300 MB went through the store. V8 collects the old generation lazily, up to about four times what is live
  // (16 MiB of items here), so the ceiling is looser than above, and still far under what 3,000 kept items would hold.
  const after = rssOf(pid) - baseline;
  assert.ok(after < 150 * 1024 * 1024, `RSS grew ${(after / 2 ** 20).toFixed(0)} MB after 3,000 taken with resets`);
  assert.is((await call(mock.url, 'POST', '/notes', { text })).status, 201);
});

bounds.run();

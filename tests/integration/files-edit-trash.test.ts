// The files plugin's file tools in a real `vigil run`: the freedesktop trash round trip (a name with a newline, a
// name collision, the .trashinfo as the spec writes it, restore, a refused restore), the editor's atomic save (a
// reader that reads all along never sees part of a file), its limits, and paths that try to leave the roots.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../support/net.js';
import { bytesOf } from '../support/file-trees.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'files-edit-trash-dashboard-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

const work = tempDir('vigil-files-edit-');
const root = join(work.path, 'home');
const xdg = join(work.path, 'xdg-data');
const trashDir = join(xdg, 'Trash');
let vigil: VigilProcess;
let base = '';

interface ErrorBody { error: { code: string; message: string } }
interface Item { name: string; path: string; deleted_at: string | null; bytes: number; dir: boolean }
interface TextFile { path: string; bytes: number; mtime_ms: number; text: string; limit: number }

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method, headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* bytes */ }
  return { status: res.status, body: parsed as T };
}

test.before(async () => {
  mkdirSync(root, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
files: { roots: [${JSON.stringify(root)}], scan_roots: [${JSON.stringify(root)}], edit_limit: 2097152 }
`);
  vigil = await startVigil(config, base, { env: { XDG_DATA_HOME: xdg } });
});

test.after(async () => {
  await vigil?.stop();
  work.cleanup();
});

test('trash and restore: the spec\'s layout, a name with a newline, a collision, and a restore that would overwrite', async () => {
  const name = 'report\nfinal 100%.txt';
  const first = join(root, 'docs', name);
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(first, 'first');
  const trashed = await call<Item>('POST', '/api/trash', { path: first });
  assert.is(trashed.status, 200, JSON.stringify(trashed.body));
  assert.is(trashed.body.name, name);
  assert.not.ok(existsSync(first), 'gone from where it was');
  assert.is(readFileSync(join(trashDir, 'files', name), 'utf8'), 'first');
  const info = readFileSync(join(trashDir, 'info', `${name}.trashinfo`), 'utf8');
  assert.match(info, /^\[Trash Info\]\nPath=.*\/docs\/report%0Afinal%20100%25\.txt\nDeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\n$/);
  // The same name again: the second item gets " 2" before the extension.
  writeFileSync(first, 'second');
  const again = await call<Item>('POST', '/api/trash', { path: first });
  assert.is(again.body.name, 'report\nfinal 100% 2.txt');
  const list = await call<{ items: Item[]; total: number; dir: string }>('GET', '/api/trash');
  assert.is(list.body.dir, trashDir);
  assert.is(list.body.total, 2);
  assert.ok(list.body.items.every((i) => i.path === first));
  // Restore the first; the second cannot go back while the first is there.
  const restored = await call<Item>('POST', '/api/trash/restore', { name });
  assert.is(restored.status, 200);
  assert.is(readFileSync(first, 'utf8'), 'first');
  assert.not.ok(existsSync(join(trashDir, 'info', `${name}.trashinfo`)));
  const refused = await call<ErrorBody>('POST', '/api/trash/restore', { name: again.body.name });
  assert.is(refused.status, 409);
  assert.is(refused.body.error.code, 'VIGIL_ERR_FILES_EXISTS');
  assert.is(readFileSync(first, 'utf8'), 'first', 'nothing was overwritten');
  // Deleting for good, then an unknown item and a name that tries to climb out of the trash.
  assert.is((await call('POST', '/api/trash/delete', { name: again.body.name })).status, 200);
  assert.equal(readdirSync(join(trashDir, 'files')), []);
  for (const bad of ['nope', '../info', '..']) {
    const r = await call<ErrorBody>('POST', '/api/trash/restore', { name: bad });
    assert.is(r.status, 404, bad);
  }
});

test('trash refuses paths outside the roots, through .. or a symbolic link', async () => {
  writeFileSync(join(work.path, 'outside.txt'), 'keep me');
  symlinkSync(work.path, join(root, 'escape'));
  for (const path of [join(work.path, 'outside.txt'), `${root}/../outside.txt`, join(root, 'escape/outside.txt'), '/etc/hostname']) {
    const r = await call<ErrorBody>('POST', '/api/trash', { path });
    assert.is(r.status, 400, path);
    assert.is(r.body.error.code, 'VIGIL_ERR_FILES_PATH');
    assert.match(r.body.error.message, /outside the folders/);
  }
  assert.is(readFileSync(join(work.path, 'outside.txt'), 'utf8'), 'keep me');
});

test('the editor: read, save atomically while a reader reads all along, a stale save refused', async () => {
  const path = join(root, 'notes.txt');
  const a = 'a'.repeat(1024 * 1024);
  const b = 'b'.repeat(1024 * 1024 + 7);
  writeFileSync(path, a);
  let reading = true;
  let reads = 0;
  const seen = new Set<number>();
  const reader = (async () => {
    while (reading) {
      const text = await readFile(path, 'utf8');
      assert.ok(text === a || text === b, `a reader saw ${text.length} characters, a part of a file`);
      seen.add(text.length);
      reads++;
    }
  })();
  let expected = (await call<TextFile>('GET', `/api/readfile?path=${encodeURIComponent(path)}`)).body.mtime_ms;
  for (let i = 0; i < 20; i++) {
    const saved = await call<TextFile>('POST', '/api/writefile', { path, text: i % 2 === 0 ? b : a, expected_mtime_ms: expected });
    assert.is(saved.status, 200, JSON.stringify(saved.body).slice(0, 300));
    expected = saved.body.mtime_ms;
  }
  reading = false;
  await reader;
  assert.ok(reads > 10, `${reads} reads`);
  assert.is(readFileSync(path, 'utf8'), a);
  // No temporary file is left beside it.
  assert.equal(readdirSync(root).filter((n) => n.includes('vigil-')), []);
  // Someone else changed it since: the save is refused.
  writeFileSync(path, 'changed elsewhere');
  const stale = await call<ErrorBody>('POST', '/api/writefile', { path, text: 'mine', expected_mtime_ms: expected - 1000 });
  assert.is(stale.status, 409);
  assert.is(stale.body.error.code, 'VIGIL_ERR_FILES_CHANGED');
  assert.is(readFileSync(path, 'utf8'), 'changed elsewhere');
});

test('the editor\'s bounds: too large, not text, a new file only when asked, outside the roots', async () => {
  const big = join(root, 'big.log');
  writeFileSync(big, Buffer.alloc(3 * 1024 * 1024, 'x'));
  assert.is((await call<ErrorBody>('GET', `/api/readfile?path=${encodeURIComponent(big)}`)).status, 413);
  assert.is((await call<ErrorBody>('POST', '/api/writefile', { path: big, text: 'x'.repeat(2 * 1024 * 1024 + 1) })).status, 413);
  const bin = join(root, 'blob.bin');
  writeFileSync(bin, bytesOf(4096, 3));
  const notText = await call<ErrorBody>('GET', `/api/readfile?path=${encodeURIComponent(bin)}`);
  assert.is(notText.status, 415);
  assert.is(notText.body.error.code, 'VIGIL_ERR_FILES_NOT_TEXT');
  const fresh = join(root, 'new.txt');
  assert.is((await call<ErrorBody>('POST', '/api/writefile', { path: fresh, text: 'hi' })).status, 400);
  assert.is((await call<TextFile>('POST', '/api/writefile', { path: fresh, text: 'hi', create: true })).status, 200);
  assert.is(readFileSync(fresh, 'utf8'), 'hi');
  for (const path of ['/etc/passwd', `${root}/../../../../etc/passwd`, join(root, 'escape/outside.txt'), 'notes.txt', `${root}/x\0y`]) {
    const r = await call<ErrorBody>('GET', `/api/readfile?path=${encodeURIComponent(path)}`);
    assert.is(r.status, 400, path);
    const w = await call<ErrorBody>('POST', '/api/writefile', { path, text: 'pwned', create: true });
    assert.is(w.status, 400, path);
  }
  assert.is(readFileSync(join(work.path, 'outside.txt'), 'utf8'), 'keep me');
  // A file kept elsewhere under a link: the save goes to the file it points to, inside the roots; a link that
  // points out of them is refused and its target left alone.
  mkdirSync(join(root, 'dotfiles'));
  writeFileSync(join(root, 'dotfiles/bashrc'), 'old');
  symlinkSync(join(root, 'dotfiles/bashrc'), join(root, '.bashrc'));
  assert.is((await call<TextFile>('POST', '/api/writefile', { path: join(root, '.bashrc'), text: 'new' })).status, 200);
  assert.is(readFileSync(join(root, 'dotfiles/bashrc'), 'utf8'), 'new');
  assert.ok(lstatSync(join(root, '.bashrc')).isSymbolicLink(), 'the link stays a link');
  symlinkSync(join(work.path, 'outside.txt'), join(root, 'sneaky'));
  assert.is((await call<ErrorBody>('POST', '/api/writefile', { path: join(root, 'sneaky'), text: 'pwned' })).status, 400);
  assert.is(readFileSync(join(work.path, 'outside.txt'), 'utf8'), 'keep me');
  // A loop of symbolic links is named as one.
  symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
  symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
  const loop = await call<ErrorBody>('GET', `/api/readfile?path=${encodeURIComponent(join(root, 'loop-a'))}`);
  assert.is(loop.status, 400);
  assert.match(loop.body.error.message, /loop/);
});

test('image preview: the bytes with their type and a sandbox; anything else refused', async () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3a6f6c40000000049454e44ae426082', 'hex');
  writeFileSync(join(root, 'dot.png'), png);
  const res = await fetch(`${base}/api/raw?path=${encodeURIComponent(join(root, 'dot.png'))}`, { headers: auth });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'image/png');
  assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(png));
  const txt = await call<ErrorBody>('GET', `/api/raw?path=${encodeURIComponent(join(root, 'notes.txt'))}`);
  assert.is(txt.status, 415);
});

test.run();

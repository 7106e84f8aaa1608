// Clean-up, drive health and container disk usage in a real `vigil run`: the sizes are measured before anything is
// removed and agree with du, cleaning the caches empties the folder and keeps it, the trash empties; the drives are
// the ones /sys/block lists; docker's answer or the reason it has none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { bytesOf } from '../support/file-trees.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'files-cleanup-dashboard-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const work = tempDir('vigil-files-cleanup-');
const cache = join(work.path, 'cache');
const xdg = join(work.path, 'xdg');
let vigil: VigilProcess;
let base = '';

interface Target { id: string; path: string | null; bytes: number | null; complete: boolean; can_clean: boolean; note: string }

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method, headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as T };
}

const du = (p: string) => Number(execFileSync('du', ['-s', '-x', '-B1', p], { encoding: 'utf8' }).split('\t')[0]);

test.before(async () => {
  mkdirSync(join(cache, 'thumbnails/large'), { recursive: true });
  writeFileSync(join(cache, 'thumbnails/large/a.png'), bytesOf(300_000, 1));
  writeFileSync(join(cache, 'pip.bin'), bytesOf(120_000, 2));
  mkdirSync(join(work.path, 'home'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
files: { roots: [${JSON.stringify(join(work.path, 'home'))}] }
privilege: {}
`);
  vigil = await startVigil(config, base, { env: { XDG_CACHE_HOME: cache, XDG_DATA_HOME: xdg } });
});

test.after(async () => {
  await vigil?.stop();
  work.cleanup();
});

test('clean-up: sizes first (as du counts them), then the caches emptied and the folder kept, then the trash', async () => {
  const before = await call<{ targets: Target[] }>('GET', '/api/cleanup');
  assert.is(before.status, 200);
  const ids = before.body.targets.map((t) => t.id);
  assert.equal(ids, ['user-cache', 'trash', 'apt', 'journal']);
  const userCache = before.body.targets[0];
  assert.is(userCache.path, cache);
  assert.is(userCache.bytes, du(cache));
  assert.ok(userCache.complete);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  assert.is(before.body.targets[2].can_clean, root, 'apt needs root');
  assert.is(before.body.targets[3].can_clean, root, 'the journal needs root');
  if (!root) {
    const refused = await call<{ error: { code: string; message: string } }>('POST', '/api/clean', { target: 'apt' });
    assert.is(refused.status, 403);
    assert.match(refused.body.error.message, /sudo apt-get clean/);
  }
  const cleaned = await call<{ before: number; after: number }>('POST', '/api/clean', { target: 'user-cache' });
  assert.is(cleaned.status, 200);
  assert.is(cleaned.body.before, userCache.bytes);
  assert.ok(cleaned.body.after < 20_000, `${cleaned.body.after} bytes left`);
  assert.ok(existsSync(cache), 'the folder stays');
  assert.equal(readdirSync(cache), []);
  // The trash: an item, then emptied.
  writeFileSync(join(work.path, 'home/old.txt'), 'x'.repeat(5000));
  assert.is((await call('POST', '/api/trash', { path: join(work.path, 'home/old.txt') })).status, 200);
  const trash = (await call<{ targets: Target[] }>('GET', '/api/cleanup')).body.targets[1];
  assert.ok((trash.bytes ?? 0) >= 5000, `${trash.bytes} bytes in the trash`);
  assert.is((await call('POST', '/api/clean', { target: 'trash' })).status, 200);
  assert.equal(readdirSync(join(xdg, 'Trash/files')), []);
  assert.equal(readdirSync(join(xdg, 'Trash/info')), []);
  const bad = await call<{ error: { code: string } }>('POST', '/api/clean', { target: '/etc' });
  assert.is(bad.status, 400);
});

test('drive health: the whole disks /sys/block lists, with their size and type', async () => {
  const r = await call<{ drives: { name: string; size_bytes: number; type: string }[]; smartctl: boolean }>('GET', '/api/diskhealth');
  assert.is(r.status, 200);
  const expected = readdirSync('/sys/block').filter((n) => !/^(loop|ram|zram|dm-|md|sr|fd|nbd)/.test(n) && Number(readFileSync(`/sys/block/${n}/size`, 'utf8')) > 0).sort();
  assert.equal(r.body.drives.map((d) => d.name).sort(), expected);
  for (const d of r.body.drives) {
    assert.is(d.size_bytes, Number(readFileSync(`/sys/block/${d.name}/size`, 'utf8')) * 512);
    assert.is(d.type, readFileSync(`/sys/block/${d.name}/queue/rotational`, 'utf8').trim() === '1' ? 'spinning' : 'ssd');
  }
  assert.is(typeof r.body.smartctl, 'boolean');
});

test('SMART through the privileged helper: a listed disk gets a verdict or the reason, anything else is refused; every action audited', async () => {
  const drives = (await call<{ drives: { device: string }[]; smartctl: boolean; helper: boolean }>('GET', '/api/diskhealth')).body;
  assert.is(drives.helper, true);
  for (const device of ['/dev/sda; rm -rf /', '../../etc/passwd', '/dev/null']) {
    const r = await call<{ error: { code: string } }>('POST', '/api/smart', { device });
    assert.is(r.status, 400, device);
  }
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (drives.drives.length > 0 && drives.smartctl && root) {
    const r = await call<{ device: string; passed: boolean | null; summary: string }>('POST', '/api/smart', { device: drives.drives[0].device });
    assert.is(r.status, 200, JSON.stringify(r.body));
    assert.is(r.body.device, drives.drives[0].device);
    assert.ok(r.body.summary.length > 0);
  }
  // The audit log names what each action touched.
  const audit = await call<{ entries: { action: string; target: string; status: number }[] }>('GET', '/api/audit?limit=200');
  const actions = audit.body.entries.map((e) => `${e.action} ${e.target}`);
  assert.ok(actions.includes(`files trash ${join(work.path, 'home/old.txt')}`), actions.join('\n'));
  assert.ok(actions.some((a) => a.startsWith('files clean user-cache')), actions.join('\n'));
  assert.ok(actions.some((a) => a.startsWith('files clean trash')), actions.join('\n'));
  if (drives.drives.length > 0 && drives.smartctl && root) assert.ok(actions.some((a) => a.startsWith('host smartctl-health')), actions.join('\n'));
});

test('backup: refused before it is set, then copies the folders, then only what changed; the last run and its age', async () => {
  const early = await call<{ error: { code: string } }>('POST', '/api/backuprun');
  assert.is(early.status, 409);
  assert.is(early.body.error.code, 'VIGIL_ERR_FILES_BACKUP_UNSET');
  const docs = join(work.path, 'home/docs');
  mkdirSync(join(docs, 'sub'), { recursive: true });
  writeFileSync(join(docs, 'a.txt'), 'alpha');
  writeFileSync(join(docs, 'sub/b.bin'), bytesOf(70_000, 5));
  const usb = join(work.path, 'usb');
  mkdirSync(usb);
  const inside = await call<{ error: { code: string } }>('POST', '/api/backup', { sources: [docs], dest: join(docs, 'sub'), schedule: 'off' });
  assert.is(inside.status, 400, 'a destination inside a source');
  const outside = await call<{ error: { code: string } }>('POST', '/api/backup', { sources: ['/etc'], dest: usb, schedule: 'off' });
  assert.is(outside.status, 400, 'a source outside the roots');
  const set = await call<{ settings: { sources: string[]; schedule: string } }>('POST', '/api/backup', { sources: [docs], dest: usb, schedule: 'daily' });
  assert.is(set.status, 200);
  assert.equal(set.body.settings.sources, [docs]);
  type State = { last: { at: string; ok: boolean; copied: number; bytes: number } | null; age_s: number | null; folder: string; running: boolean };
  /** Starts a run (answered at once, 202) and reads the state until it has ended. */
  const backUp = async (): Promise<{ status: number; body: State }> => {
    const before = (await call<State>('GET', '/api/backup')).body.last?.at;
    const started = await call<State>('POST', '/api/backuprun');
    assert.is(started.status, 202);
    const ended = await waitFor(async () => {
      const r = await call<State>('GET', '/api/backup');
      return !r.body.running && r.body.last && r.body.last.at !== before ? r : undefined;
    }, { what: 'the backup run' });
    return ended!;
  };
  const first = await backUp();
  assert.is(first.status, 200);
  assert.is(first.body.last!.ok, true);
  assert.is(first.body.last!.copied, 2);
  assert.is(readFileSync(join(usb, 'vigil-backup/docs/sub/b.bin')).length, 70_000);
  assert.ok(existsSync(join(usb, 'vigil-backup/.last-run')), 'a marker whose age a host backup rule can watch');
  writeFileSync(join(docs, 'a.txt'), 'alpha, changed');
  const second = await backUp();
  assert.is(second.body.last!.copied, 1, 'only the changed file');
  assert.is(readFileSync(join(usb, 'vigil-backup/docs/a.txt'), 'utf8'), 'alpha, changed');
  const got = await call<State>('GET', '/api/backup');
  assert.ok(got.body.age_s !== null && got.body.age_s < 60);
  assert.is(got.body.folder, join(usb, 'vigil-backup'));
});

test('container disk usage: docker\'s rows, or why there are none', async () => {
  const r = await call<{ available: boolean; reason?: string; rows?: { type: string }[] }>('GET', '/api/dockerdisk');
  assert.is(r.status, 200);
  if (r.body.available) assert.ok(r.body.rows!.some((row) => row.type === 'Images'));
  else assert.ok((r.body.reason ?? '').length > 0);
});

test.run();

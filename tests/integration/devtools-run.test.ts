// The project launcher and GNOME tweaks in a real `vigil run`: a real make target and a real `npm run` script run
// with their output streamed (a live notice on host.projectrun, then the lines from GET /api/projectrun); Stop ends a
// script's whole process tree, a child that ignores SIGTERM included; the output cap and the wall-clock cap hold; a
// folder outside the roots (also through a symlink) is refused; the history is recorded on SQLite and PostgreSQL;
// and a GNOME setting goes round trip through the real gsettings (keyfile backend, a temporary XDG_CONFIG_HOME).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { openSse } from '../support/sse-client.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'devtools-run-dashboard-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const work = tempDir('vigil-devtools-run-');
const root = join(work.path, 'projects');
const app = join(root, 'app');
const outside = join(work.path, 'outside');
const pids = join(work.path, 'pids');
const xdg = join(work.path, 'xdg');

let vigil: VigilProcess | undefined;
let base = '';

async function call(method: string, path: string, body?: unknown, at = base): Promise<{ status: number; body: any }> {
  const res = await fetch(`${at}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A process that is gone, or a zombie nobody reaped yet (it runs nothing). */
function dead(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0] === 'Z';
  } catch {
    return true;
  }
}

async function ended(id: string, at = base): Promise<any> {
  return waitFor(async () => {
    const r = await call('GET', `/api/projectrun?id=${id}`, undefined, at);
    return r.body.state !== 'running' && r.body;
  }, { timeoutMs: 60_000, what: `run ${id} to end` });
}

test.before(async () => {
  mkdirSync(app, { recursive: true });
  mkdirSync(outside);
  mkdirSync(pids);
  mkdirSync(join(outside, 'secret'));
  writeFileSync(join(outside, 'secret', 'Makefile'), 'leak:\n\t@echo leaked\n');
  symlinkSync(join(outside, 'secret'), join(root, 'escape'));
  writeFileSync(join(app, 'Makefile'), [
    'NAME := launcher', '.PHONY: build slow', 'build:', '\t@echo "built $(NAME)"', '\t@echo "second line" >&2',
    'slow:', '\t@echo started; sleep 60', '',
  ].join('\n'));
  // A tree: the script starts a child that ignores SIGTERM, which starts a grandchild; both write their pids.
  writeFileSync(join(app, 'tree.js'), `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const child = spawn(process.execPath, ['-e', \`
  process.on('SIGTERM', () => {});
  const g = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
  require('node:fs').writeFileSync(${JSON.stringify(join(pids, 'grandchild'))}, String(g.pid));
  setInterval(() => {}, 1000);
\`], { stdio: 'inherit' });
fs.writeFileSync(${JSON.stringify(join(pids, 'child'))}, String(child.pid));
console.log('tree up');
setInterval(() => {}, 1000);
`);
  writeFileSync(join(app, 'package.json'), JSON.stringify({
    name: 'app', private: true,
    scripts: {
      hello: 'node -e "console.log(\'hello from npm\'); console.error(\'\\u001b[31mred\\u001b[0m\')"',
      tree: 'node tree.js',
      flood: 'node -e "for (let i = 0; i < 200000; i++) console.log(\'flood line \' + i)"',
      fail: 'node -e "process.exit(3)"',
    },
  }));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
devtools: { roots: [${JSON.stringify(root)}], output_cap_kib: 16, max_running: 2, run_timeout: 5m }
plugins: []
`), base, { env: { GSETTINGS_BACKEND: 'keyfile', XDG_CONFIG_HOME: xdg } });
});

test.after(async () => {
  await vigil?.stop();
  work.cleanup();
});

test('the folder lists its make targets (asked of make) and npm scripts, with the exact argv; sub-folders for the picker', async () => {
  const top = await call('GET', '/api/projectscripts');
  assert.is(top.status, 200);
  assert.equal(top.body.roots, [root]);
  const r = await call('GET', `/api/projectscripts?dir=${encodeURIComponent(app)}`);
  assert.is(r.status, 200, JSON.stringify(r.body));
  const byName = new Map(r.body.scripts.map((s: any) => [`${s.kind} ${s.name}`, s]));
  assert.equal([...byName.keys()].sort(), ['make build', 'make slow', 'npm fail', 'npm flood', 'npm hello', 'npm tree']);
  assert.equal((byName.get('make build') as any).argv, ['make', 'build']);
  assert.is((byName.get('npm tree') as any).command, 'npm run tree');
  assert.equal(r.body.runner, { name: 'npm', reason: 'no lockfile: npm' });
  assert.is(r.body.parent, root);
  const rootList = await call('GET', `/api/projectscripts?dir=${encodeURIComponent(root)}`);
  assert.equal(rootList.body.folders, ['app'], 'a symlinked folder is not offered (opening one is checked anyway)');
});

test('a folder outside the roots is refused, also through a symlink inside them, and nothing of it runs', async () => {
  for (const dir of [outside, join(root, 'escape'), join(app, '..', '..', 'outside')]) {
    const listed = await call('GET', `/api/projectscripts?dir=${encodeURIComponent(dir)}`);
    assert.is(listed.status, 403, dir);
    assert.is(listed.body.error.code, 'VIGIL_ERR_DEVTOOLS_FOLDER_REFUSED');
    const run = await call('POST', '/api/projectrun', { dir, kind: 'make', name: 'leak' });
    assert.is(run.status, 403);
  }
  const unknown = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: 'nope' });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error.code, 'VIGIL_ERR_DEVTOOLS_SCRIPT_UNKNOWN');
  const option = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: '--eval=x' });
  assert.is(option.body.error.code, 'VIGIL_ERR_DEVTOOLS_SCRIPT_UNKNOWN', 'a name make would read as an option is never found');
  const extra = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: 'build', argv: ['sh'] });
  assert.is(extra.status, 400, 'unknown body keys are refused');
});

test('a make target and an npm script run with their output streamed: a live notice, then the lines; colours stripped', async () => {
  const cookie = await logIn();
  const stream = await openSse(`${base}/api/ui/stream?topics=host.projectrun`, { cookie });
  try {
    const make = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: 'build' });
    assert.is(make.status, 202, JSON.stringify(make.body));
    assert.equal(make.body.argv, ['make', 'build']);
    const notice = await stream.next((f) => f.event === 'host.projectrun' && JSON.parse(f.data).id === make.body.id && JSON.parse(f.data).state !== 'running', 30_000);
    const data = JSON.parse(notice.data);
    assert.equal(Object.keys(data).sort(), ['dropped_bytes', 'id', 'next', 'state'], 'the stream carries no output');
    const done = await ended(make.body.id);
    assert.is(done.state, 'succeeded');
    assert.is(done.exit_code, 0);
    assert.equal(done.lines, ['built launcher', 'second line']);
    const npm = await call('POST', '/api/projectrun', { dir: app, kind: 'npm', name: 'hello' });
    assert.is(npm.status, 202);
    const out = await ended(npm.body.id);
    assert.is(out.state, 'succeeded');
    assert.ok(out.lines.includes('hello from npm'), out.lines.join('\n'));
    assert.ok(out.lines.includes('red'), 'ANSI colours are stripped');
    const fail = await ended((await call('POST', '/api/projectrun', { dir: app, kind: 'npm', name: 'fail' })).body.id);
    assert.is(fail.state, 'failed');
    assert.is(fail.exit_code, 3);
  } finally {
    stream.close();
  }
});

test('Stop ends the whole process tree: the child that ignores SIGTERM and its grandchild do not survive', async () => {
  const run = await call('POST', '/api/projectrun', { dir: app, kind: 'npm', name: 'tree' });
  assert.is(run.status, 202);
  const [child, grandchild] = (await waitFor<number[] | undefined>(() => {
    const files = ['child', 'grandchild'].map((f) => join(pids, f));
    return files.every((f) => existsSync(f) && readFileSync(f, 'utf8')) ? files.map((f) => Number(readFileSync(f, 'utf8'))) : undefined;
  }, { what: 'the tree\'s pids' }))!;
  assert.ok(!dead(child) && !dead(grandchild), 'the tree runs');
  await waitFor(async () => (await call('GET', `/api/projectrun?id=${run.body.id}`)).body.lines.includes('tree up'), { what: 'the tree\'s output' });
  const stop = await call('POST', '/api/projectrun/stop', { id: run.body.id });
  assert.is(stop.status, 200);
  const done = await ended(run.body.id);
  assert.is(done.state, 'stopped');
  assert.match(done.note, /^stopped by /);
  await waitFor(() => dead(child) && dead(grandchild), { timeoutMs: 20_000, what: 'every process of the tree to be gone' });
});

test('the output cap keeps the newest 16 KiB and says how much it dropped; at most two runs at once', async () => {
  const run = await call('POST', '/api/projectrun', { dir: app, kind: 'npm', name: 'flood' });
  const done = await ended(run.body.id);
  assert.is(done.state, 'succeeded');
  assert.ok(done.dropped_bytes > 2_000_000, `dropped ${done.dropped_bytes}`);
  assert.ok(done.output_bytes - done.dropped_bytes <= 16 * 1024 + 4096, `kept ${done.output_bytes - done.dropped_bytes}`);
  assert.ok(done.first > 150_000, `first kept line ${done.first}`);
  assert.is(done.lines[done.lines.length - 1], 'flood line 199999');
  const page = await call('GET', `/api/projectrun?id=${run.body.id}&since=0`);
  assert.is(page.body.first, done.first, 'a reader from 0 starts at the oldest kept line');
  const numbers = page.body.lines.map((l: string) => Number(l.replace('flood line ', '')));
  assert.ok(numbers.every((n: number, i: number) => i === 0 || n === numbers[i - 1] + 1), 'the kept lines are the newest, in order, none missing');

  const a = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: 'slow' });
  const b = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: 'slow' });
  assert.is(a.status, 202);
  assert.is(b.status, 202);
  const c = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: 'build' });
  assert.is(c.status, 409);
  assert.is(c.body.error.code, 'VIGIL_ERR_DEVTOOLS_TOO_MANY_RUNS');
  for (const id of [a.body.id, b.body.id]) await call('POST', '/api/projectrun/stop', { id });
  for (const id of [a.body.id, b.body.id]) assert.is((await ended(id)).state, 'stopped');
});

test('the history keeps each finished run with its tail; runs and stops are in the audit log', async () => {
  const history = await waitFor(async () => {
    const r = await call('GET', '/api/projectruns?limit=100');
    return r.body.history.length >= 7 && r.body.history;
  }, { what: 'seven runs in the history' });
  const build = history.find((h: any) => h.name === 'build' && h.state === 'succeeded');
  assert.ok(build);
  assert.is(build.folder, app);
  assert.is(build.command, 'make build');
  assert.is(build.exit_code, 0);
  const tree = history.find((h: any) => h.name === 'tree');
  assert.is(tree.state, 'stopped');
  assert.match(tree.note, /^stopped by /, 'who stopped it is kept in the history');
  const stored = await call('GET', `/api/projectrun?id=${build.id}`);
  assert.is(stored.status, 200);
  const audit = await waitFor<{ action: string; detail: string | null }[] | undefined>(async () => {
    const r = await call('GET', '/api/audit?limit=200');
    const entries = (r.body.entries as { action: string; detail: string | null }[]);
    return entries.some((e) => e.action === 'host project-run ended' && e.detail?.includes('stopped')) ? entries : undefined;
  }, { what: 'the end of the stopped run in the audit log' });
  assert.ok(audit!.some((e) => e.action === 'POST /api/projectrun' && e.detail?.includes('npm run tree in')));
  assert.ok(audit!.some((e) => e.action === 'POST /api/projectrun/stop' && e.detail?.includes('stopping npm run tree')));
});

test('GNOME tweaks: read and written through the real gsettings, values checked against its range, writes audited', async () => {
  const before = await call('GET', '/api/gnome');
  assert.is(before.status, 200, JSON.stringify(before.body));
  assert.is(before.body.available, true, before.body.reason);
  assert.is(before.body.backend, 'keyfile');
  const scheme = before.body.settings.find((s: any) => s.id === 'color-scheme');
  assert.equal({ value: scheme.value, kind: scheme.kind, choices: scheme.choices }, { value: 'default', kind: 'enum', choices: ['default', 'prefer-dark', 'prefer-light'] });
  const scale = before.body.settings.find((s: any) => s.id === 'text-scaling-factor');
  assert.equal([scale.min, scale.max, scale.integer], [0.5, 3, false]);
  const mutter = before.body.settings.find((s: any) => s.id === 'center-new-windows');
  assert.is(mutter.available, mutter.kind !== 'missing');

  const dark = await call('POST', '/api/gnome', { id: 'color-scheme', value: 'prefer-dark' });
  assert.is(dark.status, 200, JSON.stringify(dark.body));
  assert.is(dark.body.settings.find((s: any) => s.id === 'color-scheme').value, 'prefer-dark');
  const big = await call('POST', '/api/gnome', { id: 'text-scaling-factor', value: 1.25 });
  assert.is(big.body.settings.find((s: any) => s.id === 'text-scaling-factor').value, 1.25);
  await call('POST', '/api/gnome', { id: 'clock-show-seconds', value: true });
  const keyfile = readFileSync(join(xdg, 'glib-2.0', 'settings', 'keyfile'), 'utf8');
  assert.match(keyfile, /color-scheme='prefer-dark'/);
  assert.match(keyfile, /text-scaling-factor=1\.25/);
  assert.match(keyfile, /clock-show-seconds=true/);

  const outOfRange = await call('POST', '/api/gnome', { id: 'text-scaling-factor', value: 9 });
  assert.is(outOfRange.status, 400);
  assert.is(outOfRange.body.error.code, 'VIGIL_ERR_DEVTOOLS_GNOME_VALUE');
  assert.match(outOfRange.body.error.message, /from 0\.5 to 3/);
  const notChoice = await call('POST', '/api/gnome', { id: 'color-scheme', value: "'; rm -rf /" });
  assert.is(notChoice.status, 400);
  const notOffered = await call('POST', '/api/gnome', { id: 'org.gnome.desktop.lockdown', value: true });
  assert.is(notOffered.body.error.code, 'VIGIL_ERR_DEVTOOLS_GNOME_KEY_UNKNOWN');
  const audit = await call('GET', '/api/audit?limit=200');
  assert.ok(audit.body.entries.some((e: any) => e.action === 'POST /api/gnome' && e.detail === "gsettings set org.gnome.desktop.interface color-scheme 'prefer-dark'"));
});

async function logIn(): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: TOKEN }).toString(),
  });
  await res.arrayBuffer();
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vigil_session='));
  assert.ok(set, 'the login sets the session cookie');
  return set!.split(';')[0];
}

test('on PostgreSQL: the wall-clock cap stops a run and the history is recorded there', async () => {
  if (!(await postgresAvailable('devtools-run'))) return;
  const schema = await freshPostgresSchema('devtools_run');
  const port = await freePort();
  const at = `http://127.0.0.1:${port}`;
  const pgVigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data-pg
storage: { url: ${JSON.stringify(schema.url)} }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
devtools: { roots: [${JSON.stringify(root)}], run_timeout: 2s }
plugins: []
`, 'vigil-pg.yaml'), at);
  try {
    const run = await call('POST', '/api/projectrun', { dir: app, kind: 'make', name: 'slow' }, at);
    assert.is(run.status, 202, JSON.stringify(run.body));
    const done = await ended(run.body.id, at);
    assert.is(done.state, 'timed_out');
    assert.match(done.note, /time limit \(2 s\)/);
    const history = await waitFor(async () => (await call('GET', '/api/projectruns', undefined, at)).body.history.find((h: any) => h.id === run.body.id), { what: 'the run in the PostgreSQL history' });
    assert.is(history.state, 'timed_out');
    assert.ok(history.duration_ms >= 1500, `ran ${history.duration_ms} ms: stopped by the limit, not at once`);
    const stored = await call('GET', `/api/projectrun?id=${run.body.id}`, undefined, at);
    assert.is(stored.body.lines[0], 'started');
  } finally {
    await pgVigil.stop();
    await schema.drop();
  }
});

test.run();

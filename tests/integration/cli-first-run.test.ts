// What a newcomer meets at the command line: `vigil --version`, `vigil run` without a config, the dashboard link last
// and set apart, and `vigil token reset` as the way back in after a lost token.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, waitFor } from '../support/net.js';
import { repoRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-first-run-');
test.after(() => work.cleanup());

test('--version and -v print the version, as `vigil version` does', async () => {
  for (const flag of ['--version', '-v']) {
    const r = await runVigil([flag]);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /^vigil \d+\.\d+\.\d+ \(node v\d+/);
  }
});

test('`vigil run` without -config says how to start: the example in a clone, a minimal config elsewhere', async () => {
  const inClone = await runVigil(['run'], { cwd: repoRoot });
  assert.is(inClone.code, 2);
  assert.match(inClone.stderr, /npx vigil run -config examples\/vigil\.yaml/);
  const elsewhere = await runVigil(['run'], { cwd: work.path });
  assert.is(elsewhere.code, 2);
  assert.match(elsewhere.stderr, /ui: \{\}/);
});

test('a lost token: `vigil token reset` makes a new one; after a restart the old one is refused and the new one works', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data\ncontrol_plane: { listen: 127.0.0.1:${port} }\nui: {}\n`, 'token.yaml');
  const first = await startVigil(file, base, { cwd: work.path, env: { VIGIL_TOKEN: '' } });
  // The link is printed as the process turns healthy: the health answer that startVigil waits for can reach this
  // process before the child's standard output does. Wait for the whole link (it ends with a blank line).
  const out = (await waitFor(() => (/\(This token is shown once[^\n]*\)\n\n$/.test(first.stdout()) ? first.stdout() : undefined),
    { timeoutMs: 10_000, what: 'the dashboard link on standard output' }))!;
  await first.stop();
  const old = /\?token=([\w-]+)/.exec(out)?.[1];
  assert.ok(old, out);
  // The link is what standard output holds, between blank lines; the log (standard error) has no migration lines.
  assert.match(out, /^\nDashboard: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+\n\(This token is shown once[^\n]*\)\n\n$/);
  assert.not.match(first.stderr(), /applied migration/, 'migrations are logged at debug level');

  const reset = await runVigil(['token', 'reset', '-config', file], { cwd: work.path, env: { VIGIL_TOKEN: '' } });
  assert.is(reset.code, 0, reset.stderr);
  const fresh = /\?token=([\w-]+)/.exec(reset.stdout)?.[1];
  assert.ok(fresh && fresh !== old, reset.stdout);

  const second = await startVigil(file, base, { cwd: work.path, env: { VIGIL_TOKEN: '' } });
  try {
    const as = (token: string) => fetch(`${base}/api`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    assert.is(await as(old!), 401);
    assert.is(await as(fresh!), 200);
    // Printed as the process turns healthy, possibly after the health answer reached us (see above).
    const told = (await waitFor(() => (/lost it\? stop Vigil and run: npx vigil token reset -config /.test(second.stdout()) ? second.stdout() : undefined),
      { timeoutMs: 10_000, what: 'the dashboard line on standard output' }))!;
    assert.match(told, /lost it\? stop Vigil and run: npx vigil token reset -config /);
  } finally {
    await second.stop();
  }
});

test('`vigil token reset` refuses when the config sets the token, and says where to change it', async () => {
  const file = writeConfig(work.path, `data_dir: ${work.path}/data2\ncontrol_plane: { token: fixed-token-0123456789 }\nui: {}\n`, 'fixed.yaml');
  const r = await runVigil(['token', 'reset', '-config', file], { cwd: work.path });
  assert.is(r.code, 2);
  assert.match(r.stderr, /control_plane\.token in .*fixed\.yaml/);
  const bare = await runVigil(['token'], { cwd: work.path });
  assert.is(bare.code, 2);
  assert.match(bare.stderr, /vigil token reset -config FILE/);
});

test.run();

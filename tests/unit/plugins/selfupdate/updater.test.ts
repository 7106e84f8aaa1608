// Update now against real git and a real signed release: a local bare repository is the upstream, the release feed
// answers on loopback, SHA256SUMS is signed with an Ed25519 key made here, and the check is vigil verify's own.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Updater } from '../../../../plugins/selfupdate/updater.js';
import { waitFor } from '../../../support/net.js';
import { git, ReleaseUpstream } from '../../../support/release-upstream.js';
import { tempDir } from '../../../support/tmp.js';

const work = tempDir('vigil-selfupdate-');
const upstream = new ReleaseUpstream(work.path);
upstream.write('package.json', '{ "name": "vigil", "version": "0.2.0" }\n');
upstream.write('README.md', 'v2\n');
const released = upstream.commit('release 0.2.0', 'v0.2.0');
// A commit after the release: on the upstream, but not released, so never applied.
upstream.write('NEXT.md', 'not released yet\n');
const unreleased = upstream.commit('work after 0.2.0');
let feed = '';
let clones = 0;

/** A fresh checkout of the upstream at v0.1.0, on main, tracking origin/main. */
function checkout(): string {
  const dir = upstream.clone(join(work.path, `checkout-${++clones}`));
  git(dir, 'reset', '--quiet', '--hard', 'v0.1.0');
  return dir;
}

function updater(dir: string, keyFile = upstream.keyFile): Updater {
  return new Updater({
    installDir: dir, installMethod: 'git checkout', runningVersion: '0.1.0', releaseUrl: `${feed}/latest.json`, keyFile,
    requestTimeoutMs: 10_000, stepTimeoutMs: 60_000, workRoot: work.path,
  });
}

async function ended(u: Updater) {
  await waitFor(() => u.job !== null && u.job.state !== 'running', { timeoutMs: 60_000, what: 'the update to end' });
  return u.job!;
}

test.before(async () => {
  feed = await upstream.serve();
});

test.after(async () => {
  await upstream.close();
  work.cleanup();
});

test('a signed release fast-forwards the checkout to its tag, not past it', async () => {
  upstream.publish('0.2.0');
  const dir = checkout();
  const u = updater(dir);
  await u.init();
  await u.start('owner', () => undefined);
  const job = await ended(u);
  assert.is(job.state, 'done', job.lines.join('\n'));
  assert.is(job.outcome?.result, 'updated');
  assert.is(git(dir, 'rev-parse', 'HEAD'), released);
  assert.is.not(git(dir, 'rev-parse', 'HEAD'), unreleased);
  assert.is(readFileSync(join(dir, 'README.md'), 'utf8'), 'v2\n');
  assert.is(u.installedVersion(), '0.2.0');
  assert.is(git(dir, 'symbolic-ref', '--short', 'HEAD'), 'main');
  assert.ok(job.lines.some((l) => /^ok\s+signature of SHA256SUMS/.test(l)), 'the signature check is in the output');
  assert.ok(job.lines.some((l) => /^ok\s+sha256 of vigil-0\.2\.0\.src\.tar/.test(l)), 'the source archive\'s hash is checked');
  // Running it again: already there, nothing to do.
  await u.start('owner', () => undefined);
  const again = await ended(u);
  assert.is(again.outcome?.result, 'current');
});

test('two presses at once start one update; the other is told one runs', async () => {
  upstream.publish('0.2.0');
  const dir = checkout();
  const u = updater(dir);
  await u.init();
  const [a, b] = await Promise.allSettled([u.start('owner', () => undefined), u.start('owner', () => undefined)]);
  assert.equal([a.status, b.status].sort(), ['fulfilled', 'rejected']);
  const refused = (a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason) as { code?: string };
  assert.is(refused.code, 'VIGIL_ERR_SELFUPDATE_BUSY');
  const job = await ended(u);
  assert.is(job.state, 'done', job.lines.join('\n'));
  assert.is(git(dir, 'rev-parse', 'HEAD'), released);
});

/** Asserts a refusal: thrown before anything starts, with its explanation, and the checkout untouched, not even fetched. */
async function assertRefused(dir: string, explanation: RegExp) {
  const head = git(dir, 'rev-parse', 'HEAD');
  const tracking = git(dir, 'rev-parse', 'refs/remotes/origin/main');
  const asked = upstream.seen.length;
  const u = updater(dir);
  await u.init();
  const view = await u.checkout();
  assert.match(view?.refusal ?? '', explanation, 'the status says so before Update now is pressed');
  try {
    await u.start('owner', () => undefined);
    assert.unreachable('Update now ran');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'VIGIL_ERR_SELFUPDATE_REFUSED');
    assert.is((err as { status?: number }).status, 409);
    assert.match((err as Error).message, explanation);
  }
  assert.is(u.job, null, 'no update job started');
  assert.is(git(dir, 'rev-parse', 'HEAD'), head);
  assert.is(git(dir, 'rev-parse', 'refs/remotes/origin/main'), tracking, 'nothing was fetched');
  assert.is(upstream.seen.length, asked, 'the feed was not asked');
}

test('uncommitted changes are refused, and stay as they were', async () => {
  upstream.publish('0.2.0');
  const dir = checkout();
  writeFileSync(join(dir, 'README.md'), 'my local edit\n');
  await assertRefused(dir, /uncommitted changes \(README\.md\): commit or stash them/);
  assert.is(readFileSync(join(dir, 'README.md'), 'utf8'), 'my local edit\n');
  // Staged counts as uncommitted too.
  git(dir, 'add', 'README.md');
  await assertRefused(dir, /uncommitted changes/);
});

test('a detached HEAD is refused', async () => {
  upstream.publish('0.2.0');
  const dir = checkout();
  git(dir, 'checkout', '--quiet', '--detach', 'v0.1.0');
  await assertRefused(dir, /HEAD is detached at [0-9a-f]{12}: check out the branch/);
  assert.is(git(dir, 'rev-parse', 'HEAD'), git(upstream.publisher, 'rev-parse', 'v0.1.0^{commit}'));
});

test('a branch with no upstream is refused', async () => {
  upstream.publish('0.2.0');
  const dir = checkout();
  git(dir, 'branch', '--unset-upstream');
  await assertRefused(dir, /The branch main has no upstream: set one \(git branch --set-upstream-to=origin\/main\)/);
});

test('a release signed by another key is refused, and nothing is merged', async () => {
  const stranger = generateKeyPairSync('ed25519').privateKey;
  upstream.publish('0.2.0', 'Release 0.2.0', stranger);
  const dir = checkout();
  const before = git(dir, 'rev-parse', 'HEAD');
  const u = updater(dir);
  await u.init();
  await u.start('owner', () => undefined);
  const job = await ended(u);
  assert.is(job.state, 'failed');
  assert.is(job.error?.code, 'VIGIL_ERR_SELFUPDATE_NOT_VERIFIED');
  assert.match(job.error?.message ?? '', /did not verify, so nothing was applied: signature .* does not verify SHA256SUMS/);
  assert.is(git(dir, 'rev-parse', 'HEAD'), before);
  assert.is(readFileSync(join(dir, 'README.md'), 'utf8'), 'v1\n');
});

test('SHA256SUMS that lists another archive for the tag is refused', async () => {
  // Signed by the right key, but for different bytes than the tag holds (the tag was moved after signing, say).
  const files = upstream.publish('0.2.0');
  const sums = Buffer.from(files.sums.toString().replace(/^[0-9a-f]{64}(?= {2}vigil-0\.2\.0\.src\.tar)/m, 'f'.repeat(64)));
  upstream.current = { ...files, sums, sig: upstream.signed(sums) };
  const dir = checkout();
  const u = updater(dir);
  await u.init();
  await u.start('owner', () => undefined);
  const job = await ended(u);
  assert.is(job.error?.code, 'VIGIL_ERR_SELFUPDATE_NOT_VERIFIED');
  assert.is(git(dir, 'rev-parse', 'HEAD'), git(upstream.publisher, 'rev-parse', 'v0.1.0^{commit}'));
});

test('Check reads the newest release and its notes, and says it is newer', async () => {
  upstream.publish('0.2.0', '## 0.2.0\n- faster start');
  const u = updater(checkout());
  const { release } = await u.check();
  assert.equal({ version: release.version, tag: release.tag, notes: release.notes }, { version: '0.2.0', tag: 'v0.2.0', notes: '## 0.2.0\n- faster start' });
  assert.is(release.sums_url, `${feed}/SHA256SUMS`, 'relative URLs resolve against the feed');
  assert.ok(u.newer(release));
});

test('Update now without a key, or from a source tree, is refused before anything is read', async () => {
  const dir = checkout();
  const noKey = new Updater({ ...updater(dir).o, keyFile: undefined });
  assert.match(noKey.blocker()?.message ?? '', /selfupdate\.public_key/);
  const tree = new Updater({ ...updater(dir).o, installMethod: 'source tree' });
  assert.is(tree.blocker()?.code, 'VIGIL_ERR_SELFUPDATE_REFUSED');
  await tree.start('owner', () => undefined).then(() => assert.unreachable('started'), (err: Error) => assert.match(err.message, /neither a git checkout nor an npm install/));
});

test('without git on the PATH, the checkout\'s state says so instead of failing', async () => {
  const dir = checkout();
  const path = process.env.PATH;
  process.env.PATH = join(work.path, 'no-programs-here');
  try {
    const view = await updater(dir).checkout();
    assert.match(view?.refusal ?? '', /git is not installed: a git checkout is updated with git/);
  } finally {
    process.env.PATH = path;
  }
});

test.run();

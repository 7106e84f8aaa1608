// After a fast-forward: `npm ci` runs when package-lock.json changed, and `node scripts/build.mjs` when anything but
// documentation changed, each a real program streaming into the update's output; a release of documentation only
// runs neither.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Updater } from '../../../../plugins/selfupdate/updater.js';
import { waitFor } from '../../../support/net.js';
import { git, ReleaseUpstream } from '../../../support/release-upstream.js';
import { tempDir } from '../../../support/tmp.js';

const lock = (version: string) => `${JSON.stringify({ name: 'vigil', version, lockfileVersion: 3, requires: true, packages: { '': { name: 'vigil', version } } }, null, 2)}\n`;
const pkg = (version: string) => `${JSON.stringify({ name: 'vigil', version })}\n`;
// The build the release runs: it writes what it built from, so the test can see that it ran after the merge.
const BUILD = "import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';\nmkdirSync('dist', { recursive: true });\n" +
  "writeFileSync('dist/built.txt', JSON.parse(readFileSync('package.json', 'utf8')).version);\nconsole.log('built');\n";

const work = tempDir('vigil-selfupdate-steps-');
const upstream = new ReleaseUpstream(work.path, {
  'package.json': pkg('0.1.0'), 'package-lock.json': lock('0.1.0'), 'scripts/build.mjs': BUILD, 'src/main.js': 'v1\n', '.gitignore': 'dist/\nnode_modules/\n',
});
const install = upstream.clone(join(work.path, 'vigil'));
let feed = '';

async function update() {
  const u = new Updater({
    installDir: install, installMethod: 'git checkout', runningVersion: '0.1.0', releaseUrl: `${feed}/latest.json`, keyFile: upstream.keyFile,
    requestTimeoutMs: 10_000, stepTimeoutMs: 120_000, workRoot: work.path,
  });
  await u.init();
  await u.start('owner', () => undefined);
  await waitFor(() => u.job!.state !== 'running', { timeoutMs: 120_000, what: 'the update to end' });
  return u.job!;
}

test.before(async () => {
  feed = await upstream.serve();
});

test.after(async () => {
  await upstream.close();
  work.cleanup();
});

test('a release that changes package-lock.json and code runs npm ci, then the build', async () => {
  upstream.write('package.json', pkg('0.2.0'));
  upstream.write('package-lock.json', lock('0.2.0'));
  upstream.write('src/main.js', 'v2\n');
  upstream.commit('release 0.2.0', 'v0.2.0');
  upstream.publish('0.2.0');
  const job = await update();
  assert.is(job.state, 'done', job.lines.join('\n'));
  const log = job.lines.join('\n');
  assert.match(log, /== Installing dependencies \(npm ci\)\n\$ npm ci --no-audit --no-fund/);
  assert.match(log, /== Building \(node scripts\/build\.mjs\)[\s\S]*\nbuilt\n/);
  assert.ok(log.indexOf('npm ci') < log.indexOf('scripts/build.mjs'), 'dependencies before the build');
  assert.is(readFileSync(join(install, 'dist/built.txt'), 'utf8'), '0.2.0', 'the build ran on the merged tree');
});

test('a release of documentation only runs neither npm ci nor the build', async () => {
  rmSync(join(install, 'dist'), { recursive: true });
  upstream.write('docs/guide.md', '# Guide\n');
  upstream.write('README.md', 'more words\n');
  upstream.commit('release 0.2.1', 'v0.2.1');
  upstream.publish('0.2.1');
  const job = await update();
  assert.is(job.state, 'done', job.lines.join('\n'));
  assert.is(git(install, 'describe', '--tags'), 'v0.2.1');
  assert.not.match(job.lines.join('\n'), /npm ci|scripts\/build\.mjs/);
  assert.not.ok(existsSync(join(install, 'dist')));
});

test.run();

// Update now for an npm install, with real npm: a project whose node_modules holds vigil 0.1.0 installs the release's
// archive (made with `npm pack`, served on loopback, its SHA256SUMS signed here) once it verifies; an archive that is
// not the one signed is refused and the installed package stays as it was.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Updater } from '../../../../plugins/selfupdate/updater.js';
import { waitFor } from '../../../support/net.js';
import { ReleaseUpstream } from '../../../support/release-upstream.js';
import { tempDir } from '../../../support/tmp.js';

const work = tempDir('vigil-selfupdate-npm-');
const upstream = new ReleaseUpstream(work.path);
const project = join(work.path, 'project');
let feed = '';

/** `npm pack` of a package named vigil at `version` (no dependencies, so installing it needs no registry). */
function packed(version: string): Buffer {
  const dir = join(work.path, `pkg-${version}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vigil', version, type: 'module', main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), `export const version = '${version}';\n`);
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', work.path], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop()!;
  return readFileSync(join(work.path, name));
}

const installed = () => (JSON.parse(readFileSync(join(project, 'node_modules/vigil/package.json'), 'utf8')) as { version: string }).version;

function updater(): Updater {
  return new Updater({
    installDir: join(project, 'node_modules/vigil'), installMethod: 'npm package', runningVersion: '0.1.0', releaseUrl: `${feed}/latest.json`,
    keyFile: upstream.keyFile, requestTimeoutMs: 10_000, stepTimeoutMs: 120_000, workRoot: work.path,
  });
}

async function run(u: Updater) {
  await u.start('owner', () => undefined);
  await waitFor(() => u.job!.state !== 'running', { timeoutMs: 120_000, what: 'the update to end' });
  return u.job!;
}

test.before(async () => {
  feed = await upstream.serve();
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const v1 = join(work.path, 'v1.tgz');
  writeFileSync(v1, packed('0.1.0'));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', v1], { cwd: project, stdio: 'ignore' });
});

test.after(async () => {
  await upstream.close();
  work.cleanup();
});

test('an archive that is not the one signed is refused, and the installed package stays', async () => {
  const good = packed('0.2.0');
  upstream.publishArchive('0.2.0', good, generateKeyPairSync('ed25519').privateKey);
  const job = await run(updater());
  assert.is(job.error?.code, 'VIGIL_ERR_SELFUPDATE_NOT_VERIFIED', job.lines.join('\n'));
  assert.is(installed(), '0.1.0');
});

test('a verified archive is installed in the project that holds vigil', async () => {
  upstream.publishArchive('0.2.0', packed('0.2.0'));
  const u = updater();
  const job = await run(u);
  assert.is(job.state, 'done', job.lines.join('\n'));
  assert.is(job.outcome?.message, 'Installed vigil 0.2.0 (verified) over 0.1.0. Restart to run it.');
  assert.is(installed(), '0.2.0');
  assert.is(u.installedVersion(), '0.2.0');
  assert.ok(job.lines.some((l) => /^ok\s+sha256 of vigil-0\.2\.0\.tgz/.test(l)));
});

test.run();

// The signed release, end to end: scripts/release.mjs runs for real (npm pack, npm sbom, signing) into a temporary
// folder with a throwaway Ed25519 key, `vigil verify` accepts it, and then each artefact is tampered with in turn and
// `vigil verify` refuses it with exit 1, naming what failed. dist/ is built before the tests run, so --skip-build.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, vigilBin } from '../support/paths.js';

const work = mkdtempSync(join(tmpdir(), 'vigil-release-'));
const out = join(work, 'release');
const keys = (name: string) => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(join(work, `${name}.key.pem`), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(work, `${name}.pub.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
  return { key: join(work, `${name}.key.pem`), pub: join(work, `${name}.pub.pem`) };
};
const signer = keys('signer');
/** A release made in a git checkout also holds the source archive self-updating checkouts verify a tag against. */
const inGit = existsSync(join(repoRoot, '.git'));
const stranger = keys('stranger');

function release(env: NodeJS.ProcessEnv) {
  const clean = { ...process.env, ...env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete clean[k];
  return spawnSync(process.execPath, [join(repoRoot, 'scripts/release.mjs'), '--skip-build', '--out', out], { cwd: repoRoot, env: clean, encoding: 'utf8' });
}

function verify(dir: string, ...args: string[]) {
  const archive = readdirSync(dir).find((f) => f.endsWith('.tgz')) ?? 'missing.tgz';
  return spawnSync(process.execPath, [vigilBin, 'verify', join(dir, archive), ...args], { cwd: work, encoding: 'utf8' });
}

/** A copy of the release to damage, so each case starts from the good one. */
let copies = 0;
function copy(): { dir: string; archive: string; sbom: string } {
  const dir = join(work, `copy-${++copies}`);
  cpSync(out, dir, { recursive: true });
  const files = readdirSync(dir);
  return { dir, archive: join(dir, files.find((f) => f.endsWith('.tgz'))!), sbom: join(dir, files.find((f) => f.endsWith('.cdx.json'))!) };
}

function flipByte(file: string, at: number): void {
  const data = readFileSync(file);
  data[at % data.length] ^= 0x01;
  writeFileSync(file, data);
}

test.after(() => rmSync(work, { recursive: true, force: true }));

test('without VIGIL_RELEASE_KEY the release says how to make a key and exits 2, building nothing', () => {
  const r = release({ VIGIL_RELEASE_KEY: undefined });
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, 'openssl genpkey -algorithm ed25519');
  assert.match(r.stderr, '--new-key');
});

test('the release writes the archive, a CycloneDX SBOM, SHA256SUMS and its signature, and vigil verify accepts them', () => {
  const started = Date.now();
  const r = release({ VIGIL_RELEASE_KEY: signer.key });
  assert.is(r.status, 0, r.stderr);
  const files = readdirSync(out).sort();
  assert.equal(files, ['SHA256SUMS', 'SHA256SUMS.sig', 'vigil-0.1.0.cdx.json', ...(inGit ? ['vigil-0.1.0.src.tar'] : []), 'vigil-0.1.0.tgz']);
  assert.ok(Date.now() - started < 60_000, `the release took ${Date.now() - started} ms`);

  const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8');
  assert.match(sums, inGit
    ? /^[0-9a-f]{64} {2}vigil-0\.1\.0\.tgz\n[0-9a-f]{64} {2}vigil-0\.1\.0\.cdx\.json\n[0-9a-f]{64} {2}vigil-0\.1\.0\.src\.tar\n$/
    : /^[0-9a-f]{64} {2}vigil-0\.1\.0\.tgz\n[0-9a-f]{64} {2}vigil-0\.1\.0\.cdx\.json\n$/);
  if (inGit) {
    // The same bytes `git archive` makes of HEAD again: what a checkout's self-update computes for the release's tag.
    const again = spawnSync('git', ['archive', '--format=tar', '--prefix=vigil-0.1.0/', 'HEAD'], { cwd: repoRoot, maxBuffer: 512 * 1024 * 1024 });
    assert.ok(readFileSync(join(out, 'vigil-0.1.0.src.tar')).equals(again.stdout), 'the source archive is git archive of HEAD');
  }
  // sha256sum itself agrees with the file (it is the format people check by hand).
  const check = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' });
  if (!check.error) assert.is(check.status, 0, check.stdout + check.stderr);
  assert.is(readFileSync(join(out, 'SHA256SUMS.sig')).length, 64);

  const sbom = JSON.parse(readFileSync(join(out, 'vigil-0.1.0.cdx.json'), 'utf8')) as { bomFormat: string; components: { name: string }[] };
  assert.is(sbom.bomFormat, 'CycloneDX');
  const names = new Set(sbom.components.map((c) => c.name));
  for (const dep of ['sqlite3', 'isolated-vm', 'yaml']) assert.ok(names.has(dep), `the SBOM lists ${dep}`);
  assert.not.ok(names.has('typescript'), 'dev dependencies are not in the SBOM');

  const listing = spawnSync('tar', ['tzf', join(out, 'vigil-0.1.0.tgz')], { encoding: 'utf8' });
  assert.is(listing.status, 0, listing.stderr);
  const entries = listing.stdout.split('\n').filter(Boolean).map((p) => p.replace(/^package\//, ''));
  for (const must of ['bin/vigil.js', 'dist/app/cli.js', 'dist/app/release/verify-command.js', 'node_modules/@vigil/plugin-sdk/dist/index.js', 'node_modules/@vigil/plugin-sdk/dist/release-verify.js']) {
    assert.ok(entries.includes(must), `the archive holds ${must}`);
  }
  assert.equal(entries.filter((p) => /^(tests|bench|dist\/tests|dist\/bench)\//.test(p)), [], 'no tests or benchmarks');
  // Native modules are not in the archive: they build (or fetch their prebuilt binary) when it is installed.
  assert.equal(entries.filter((p) => p.endsWith('.node')), []);

  const v = verify(out, '--key', signer.pub);
  assert.is(v.status, 0, v.stderr);
  assert.match(v.stdout, 'verified');
});

test('the archive runs once unpacked into node_modules: its own files and the bundled SDK are all it needs besides the registry dependencies', () => {
  // The registry dependencies are linked from this checkout (no network here); @vigil/plugin-sdk must come from the archive.
  const modules = join(work, 'installed/node_modules');
  mkdirSync(modules, { recursive: true });
  const untar = spawnSync('tar', ['xzf', join(out, 'vigil-0.1.0.tgz'), '-C', join(work, 'installed')], { encoding: 'utf8' });
  assert.is(untar.status, 0, untar.stderr);
  renameSync(join(work, 'installed/package'), join(modules, 'vigil'));
  for (const name of readdirSync(join(repoRoot, 'node_modules'))) {
    if (name !== '@vigil' && name !== 'vigil' && !name.startsWith('.')) symlinkSync(join(repoRoot, 'node_modules', name), join(modules, name));
  }
  const bin = join(modules, 'vigil/bin/vigil.js');
  const version = spawnSync(process.execPath, [bin, 'version'], { cwd: work, encoding: 'utf8' });
  assert.is(version.status, 0, version.stderr);
  assert.match(version.stdout, /^vigil 0\.1\.0 /);
  // validate loads every built-in plugin, so a module missing from the archive fails here.
  const validate = spawnSync(process.execPath, [bin, 'validate', '-config', join(modules, 'vigil/examples/vigil.yaml')], { cwd: work, encoding: 'utf8' });
  assert.is(validate.status, 0, validate.stderr);
  assert.match(validate.stdout, 'valid');
});

test('a flipped byte in the archive fails verification, naming the archive', () => {
  const { dir, archive } = copy();
  flipByte(archive, 4096);
  const v = verify(dir, '--key', signer.pub);
  assert.is(v.status, 1);
  assert.match(v.stderr, /FAILED\s+sha256 of vigil-0\.1\.0\.tgz is [0-9a-f]{64}, SHA256SUMS says/);
  assert.match(v.stdout, /ok\s+signature of SHA256SUMS/);
});

test('an edited SBOM fails verification, naming the SBOM', () => {
  const { dir, sbom } = copy();
  writeFileSync(sbom, readFileSync(sbom, 'utf8').replace('"sqlite3"', '"sqlite4"'));
  const v = verify(dir, '--key', signer.pub);
  assert.is(v.status, 1);
  assert.match(v.stderr, /FAILED\s+sha256 of vigil-0\.1\.0\.cdx\.json is/);
  assert.match(v.stdout, /ok\s+sha256 of vigil-0\.1\.0\.tgz/);
});

test('a changed SHA256SUMS line fails verification: the signature no longer matches', () => {
  const { dir, archive } = copy();
  // The attacker's move: replace the archive and write its real hash into SHA256SUMS.
  flipByte(archive, 100);
  const hash = spawnSync('sha256sum', [archive], { encoding: 'utf8' }).stdout.split(' ')[0];
  const sumsFile = join(dir, 'SHA256SUMS');
  const lines = readFileSync(sumsFile, 'utf8').split('\n');
  lines[0] = `${hash}  vigil-0.1.0.tgz`;
  writeFileSync(sumsFile, lines.join('\n'));
  const v = verify(dir, '--key', signer.pub);
  assert.is(v.status, 1);
  assert.match(v.stderr, /FAILED\s+signature .*SHA256SUMS\.sig does not verify SHA256SUMS/);
  assert.match(v.stderr, 'NOT verified: 1 check(s) failed');
});

test('a flipped byte in the signature fails verification, naming the signature', () => {
  const { dir } = copy();
  flipByte(join(dir, 'SHA256SUMS.sig'), 10);
  const v = verify(dir, '--key', signer.pub);
  assert.is(v.status, 1);
  assert.match(v.stderr, /FAILED\s+signature .*does not verify SHA256SUMS/);
});

test('a different public key fails verification', () => {
  const v = verify(out, '--key', stranger.pub);
  assert.is(v.status, 1);
  assert.match(v.stderr, /FAILED\s+signature .*does not verify SHA256SUMS with the key .*stranger\.pub\.pem/);
});

test('missing files fail with exit 1 and usage errors exit 2', () => {
  const { dir } = copy();
  rmSync(join(dir, 'SHA256SUMS.sig'));
  const missing = verify(dir, '--key', signer.pub);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, /FAILED\s+signature .*SHA256SUMS\.sig: not found/);

  const noKey = spawnSync(process.execPath, [vigilBin, 'verify', join(out, 'vigil-0.1.0.tgz')], { encoding: 'utf8', env: { ...process.env, VIGIL_RELEASE_PUBLIC_KEY: '' } });
  assert.is(noKey.status, 2);
  assert.match(noKey.stderr, '--key PUBLIC.pem');
  const noArchive = spawnSync(process.execPath, [vigilBin, 'verify'], { encoding: 'utf8' });
  assert.is(noArchive.status, 2);

  // --sums and --sig name files elsewhere; --format json is for CI.
  const other = join(work, 'elsewhere');
  cpSync(out, other, { recursive: true });
  const json = spawnSync(process.execPath, [vigilBin, 'verify', join(out, 'vigil-0.1.0.tgz'), '--sums', join(other, 'SHA256SUMS'),
    '--sig', join(other, 'SHA256SUMS.sig'), '--key', signer.pub, '--format', 'json'], { encoding: 'utf8' });
  assert.is(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { verified: boolean; checks: { ok: boolean }[] };
  assert.is(report.verified, true);
  assert.is(report.checks.length, inGit ? 4 : 3);
});

test.run();

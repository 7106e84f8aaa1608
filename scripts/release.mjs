// `npm run release`: the signed release of the seed's "Versioning" section (docs/releases.md says how to use it).
//   1. builds dist/ (scripts/build.mjs), unless --skip-build;
//   2. packs the package (`npm pack`) into the output folder: the archive is one for every platform, because the
//      native modules (sqlite3, isolated-vm) build when the archive is installed, not here;
//   3. checks the archive holds what it must (bin/, dist/, the bundled @vigil/plugin-sdk) and nothing it must not
//      (tests, benchmarks, sources, other node_modules);
//   4. writes a CycloneDX SBOM of the production dependencies (`npm sbom`, narrowed to what they reach);
//   5. in a git checkout, writes the source archive (`git archive` of HEAD, vigil-X.src.tar) that self-updating
//      checkouts verify a release's tag against;
//   6. writes SHA256SUMS (sha256sum's format) over the archive, the SBOM and the source archive, and signs it with Ed25519
//      (SHA256SUMS.sig, the 64 raw signature bytes) with the PKCS#8 PEM private key at $VIGIL_RELEASE_KEY.
// `vigil verify ARCHIVE --key PUBLIC.pem` checks all of it.
// Flags: --out DIR (default release/, or $VIGIL_RELEASE_DIR), --skip-build, --new-key DIR (writes a key pair and exits).
// Exit codes: 0 released, 1 a step failed, 2 usage (no key, unknown flag).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npmCli = process.env.npm_execpath && process.env.npm_execpath.endsWith('.js') ? process.env.npm_execpath : undefined;

function usage(message) {
  process.stderr.write(`release: ${message}\n\nUsage: node scripts/release.mjs [--out DIR] [--skip-build] | --new-key DIR\n`);
  process.exit(2);
}

function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

const argv = process.argv.slice(2);
const opts = { out: process.env.VIGIL_RELEASE_DIR || join(root, 'release'), skipBuild: false, newKey: undefined };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--skip-build') opts.skipBuild = true;
  else if (a === '--out' || a === '--new-key') {
    const v = argv[++i];
    if (!v) usage(`${a} needs a folder`);
    if (a === '--out') opts.out = v; else opts.newKey = v;
  } else usage(`unknown argument ${a}`);
}

if (opts.newKey) {
  const dir = resolve(opts.newKey);
  await mkdir(dir, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const priv = join(dir, 'vigil-release.key.pem');
  const pub = join(dir, 'vigil-release.pub.pem');
  if (existsSync(priv)) fail(`${priv} exists; not overwriting a signing key`);
  await writeFile(priv, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await writeFile(pub, publicKey.export({ type: 'spki', format: 'pem' }));
  process.stdout.write(`release: wrote ${priv} (keep it secret) and ${pub} (publish it)\n` +
    `  sign:   VIGIL_RELEASE_KEY=${priv} npm run release\n  verify: vigil verify ARCHIVE --key ${pub}\n`);
  process.exit(0);
}

// The key is checked first: a release without a signature is not a release, so nothing is built without one.
const keyPath = process.env.VIGIL_RELEASE_KEY;
if (!keyPath) {
  process.stderr.write([
    'release: set VIGIL_RELEASE_KEY to the path of an Ed25519 private key (PEM, PKCS#8) to sign the release.',
    'Make one with either of:',
    '  openssl genpkey -algorithm ed25519 -out vigil-release.key.pem && openssl pkey -in vigil-release.key.pem -pubout -out vigil-release.pub.pem',
    '  node scripts/release.mjs --new-key DIR',
    '',
  ].join('\n'));
  process.exit(2);
}
let privateKey;
try {
  privateKey = createPrivateKey(await readFile(keyPath));
} catch (err) {
  fail(`cannot read the signing key ${keyPath}: ${err.message}`);
}
if (privateKey.asymmetricKeyType !== 'ed25519') fail(`${keyPath} is a ${privateKey.asymmetricKeyType} key; the release is signed with Ed25519`);

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) fail(`${what} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || r.error?.message || '').trim()}`);
  return r.stdout;
}
const npm = (args, what) => (npmCli ? run(process.execPath, [npmCli, ...args], what) : run('npm', args, what));

if (!opts.skipBuild) run(process.execPath, [join(root, 'scripts/build.mjs')], 'the build (node scripts/build.mjs)');
if (!existsSync(join(root, 'dist/app/cli.js'))) fail('dist/ is not built: run node scripts/build.mjs (or drop --skip-build)');

const out = resolve(opts.out);
await mkdir(out, { recursive: true });

// --ignore-scripts: `prepare` would build again, and this script built already.
const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out], 'npm pack'))[0];
const archive = packed.filename.replace(/^@/, '').replace(/\//, '-');
const paths = packed.files.map((f) => f.path);
const problems = [];
for (const must of ['bin/vigil.js', 'package.json', 'dist/app/cli.js', 'dist/runtime/runtime.js', 'node_modules/@vigil/plugin-sdk/dist/index.js']) {
  if (!paths.includes(must)) problems.push(`${must} is missing`);
}
const forbidden = [
  [/^(tests|bench|dist\/tests|dist\/bench)\//, 'tests and benchmarks'],
  [/^(app|runtime|plugins|policies|sandbox|ui)\/.*\.tsx?$/, 'TypeScript sources (dist/ is shipped)'],
  [/^node_modules\/(?!@vigil\/plugin-sdk\/)/, 'dependencies other than the bundled @vigil/plugin-sdk (they install from the registry)'],
  [/(^|\/)\.vigil(-demo)?\/|\.db(-wal|-shm)?$/, 'local data'],
];
for (const [pattern, what] of forbidden) {
  const hits = paths.filter((p) => pattern.test(p));
  if (hits.length) problems.push(`${what}: ${hits.slice(0, 3).join(', ')}${hits.length > 3 ? ` and ${hits.length - 3} more` : ''}`);
}
if (problems.length) {
  await rm(join(out, archive), { force: true });
  fail(`the archive is not sane:\n  ${problems.join('\n  ')}\n(package.json "files" decides what is packed)`);
}

const sbomName = archive.replace(/\.tgz$/, '.cdx.json');
// `npm sbom --omit dev` (npm 11) leaves out a production dependency that a dev dependency also requires (yaml, once
// an OpenAPI validator needed it), so the production set is taken here from the whole SBOM's own dependency graph:
// what the package's dependencies and optionalDependencies reach (the bundled SDK among them; the other workspaces,
// which the archive does not hold, are not reached).
const sbom = productionSbom(JSON.parse(npm(['sbom', '--sbom-format', 'cyclonedx'], 'npm sbom')));
await writeFile(join(out, sbomName), `${JSON.stringify(sbom, null, 2)}\n`);

// The source archive of the commit released, for git checkouts that update themselves (plugins/selfupdate): they
// make the same `git archive` of the release's tag and check it against this line, under the same signature.
const sourceName = archive.replace(/\.tgz$/, '.src.tar');
const inGit = existsSync(join(root, '.git'));
if (inGit) run('git', ['archive', '--format=tar', `--prefix=vigil-${packed.version}/`, '-o', join(out, sourceName), 'HEAD'], 'git archive HEAD');

const sha256 = async (file) => createHash('sha256').update(await readFile(file)).digest('hex');
const sums = `${await sha256(join(out, archive))}  ${archive}\n${await sha256(join(out, sbomName))}  ${sbomName}\n` +
  (inGit ? `${await sha256(join(out, sourceName))}  ${sourceName}\n` : '');
await writeFile(join(out, 'SHA256SUMS'), sums);
await writeFile(join(out, 'SHA256SUMS.sig'), sign(null, Buffer.from(sums), privateKey));
const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' });

process.stdout.write([
  `release: ${packed.name}@${packed.version} in ${out}`,
  `  ${archive}  (${packed.entryCount} files, ${(packed.size / 1024 / 1024).toFixed(1)} MB; the same for macOS and Linux on x64 and arm64)`,
  `  ${sbomName}  (CycloneDX SBOM, production dependencies)`,
  ...(inGit ? [`  ${sourceName}  (git archive of HEAD: what a git checkout's self-update checks the release's tag against)`] : []),
  `  SHA256SUMS, SHA256SUMS.sig  (Ed25519, public key below)`,
  `verify with: vigil verify ${join(out, archive)} --key PUBLIC.pem`,
  publicPem.trimEnd(),
  '',
].join('\n'));

/** The SBOM narrowed to the components the root's production dependencies reach, with its graph narrowed alike. */
function productionSbom(full) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const direct = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})]);
  const rootRef = full.metadata.component['bom-ref'];
  const edges = new Map(full.dependencies.map((d) => [d.ref, d.dependsOn ?? []]));
  const reached = new Set();
  // Names from the refs (`name@version`): a workspace's component is named after its folder (the SDK's `plugin-sdk`).
  const nameOf = (ref) => ref.slice(0, ref.lastIndexOf('@'));
  const queue = (edges.get(rootRef) ?? []).filter((ref) => direct.has(nameOf(ref)));
  for (const name of direct) {
    if (!queue.some((ref) => nameOf(ref) === name)) throw new Error(`npm sbom: the production dependency ${name} is not in the SBOM`);
  }
  while (queue.length) {
    const ref = queue.pop();
    if (reached.has(ref)) continue;
    reached.add(ref);
    queue.push(...(edges.get(ref) ?? []));
  }
  return {
    ...full,
    components: full.components.filter((c) => reached.has(c['bom-ref'])),
    dependencies: full.dependencies
      .filter((d) => d.ref === rootRef || reached.has(d.ref))
      .map((d) => ({ ...d, dependsOn: (d.dependsOn ?? []).filter((ref) => reached.has(ref)) })),
  };
}

// `vigil review` with BASE and HEAD as git revisions of one file, read with `git show` from a real repository made
// here: two commits and an edit in the work tree. A missing revision, path, repository or git itself is a clear exit 2,
// and a bad policy at a revision is named by revision, path, line and key path.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const git = suite('vigil review with git revisions');
const work = tempDir('vigil-review-git-');
const repo = join(work.path, 'repo');

const policy = (fields: string) => `rules:
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [${fields}] }
`;
const sh = (...args: string[]) => execFileSync('git', ['-c', 'user.email=review@test', '-c', 'user.name=review', ...args], { cwd: repo, stdio: 'pipe' });

git.before(() => {
  mkdirSync(join(repo, 'policy'), { recursive: true });
  sh('init', '-q', '-b', 'main');
  writeConfig(join(repo, 'policy'), policy('$.card.number, $.card.cvc'), 'vigil.yaml');
  writeConfig(repo, `requests:
  - request: { method: POST, path: /api/payments/charge, body: { card: { number: "4111111111111111", cvc: "123" } } }
`, 'sample.yaml');
  sh('add', '.');
  sh('commit', '-q', '-m', 'base policy');
  writeConfig(join(repo, 'policy'), policy('$.card.number'), 'vigil.yaml');
  writeConfig(join(repo, 'policy'), 'rules:\n  - name: x\n    match: { path: /a }\n    redact: { json_feilds: [$.a] }\n', 'bad.yaml');
  sh('add', '.');
  sh('commit', '-q', '-m', 'head policy: cvc no longer masked');
  // The work tree goes further: the number is no longer masked either.
  writeConfig(join(repo, 'policy'), policy(''), 'vigil.yaml');
});

git.after(() => work.cleanup());

const run = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => runVigil(['review', ...args], { cwd: repo, ...options });
const fields = (stdout: string) => (JSON.parse(stdout) as { changes: { field: string }[] }).changes.map((c) => c.field).sort();

git('two revisions of one file', async () => {
  const r = await run(['--base', 'HEAD~1:policy/vigil.yaml', '--head', 'HEAD:policy/vigil.yaml', '--sample', 'sample.yaml', '--format', 'json']);
  assert.is(r.code, 1, r.stderr);
  assert.equal(fields(r.stdout), ['$.card.cvc']);
  assert.is(JSON.parse(r.stdout).base, 'HEAD~1:policy/vigil.yaml');
});

git('a revision against the file in the work tree, and the same revision on both sides', async () => {
  const r = await run(['--base', 'main:policy/vigil.yaml', '--head', 'policy/vigil.yaml', '--sample', 'sample.yaml', '--format', 'json']);
  assert.is(r.code, 1, r.stderr);
  assert.equal(fields(r.stdout), ['$.card.number']);
  const same = await run(['--base', 'main~1:policy/vigil.yaml', '--head', 'main~1:policy/vigil.yaml', '--sample', 'sample.yaml']);
  assert.is(same.code, 0, same.stderr);
  assert.match(same.stdout, /PASS: no weakening/);
});

git('a missing revision, path or repository, and no git at all: exit 2 with the reason', async () => {
  let r = await run(['--base', 'nope:policy/vigil.yaml', '--head', 'policy/vigil.yaml', '--sample', 'sample.yaml']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /^nope:policy\/vigil\.yaml: cannot read it from git in .*: fatal: invalid object name 'nope'/);
  r = await run(['--base', 'main:policy/missing.yaml', '--head', 'policy/vigil.yaml', '--sample', 'sample.yaml']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /main:policy\/missing\.yaml: cannot read it from git .*does not exist in 'main'/);
  r = await run(['--base', 'main:policy/vigil.yaml', '--head', join(repo, 'policy/vigil.yaml'), '--sample', join(repo, 'sample.yaml')], { cwd: work.path });
  assert.is(r.code, 2);
  assert.match(r.stderr, /not a git repository/);
  r = await run(['--base', 'main:policy/vigil.yaml', '--head', 'policy/vigil.yaml', '--sample', 'sample.yaml'], { env: { PATH: join(work.path, 'no-bin') } });
  assert.is(r.code, 2);
  assert.match(r.stderr, /main:policy\/vigil\.yaml: git is not installed/);
});

git('a bad policy at a revision is named by revision, path, line and key path', async () => {
  const r = await run(['--base', 'main:policy/vigil.yaml', '--head', 'HEAD:policy/bad.yaml', '--sample', 'sample.yaml']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /^HEAD:policy\/bad\.yaml:4:15: unknown key rules\[0\]\.redact\.json_feilds \(did you mean json_fields\?\)/);
});

git.run();

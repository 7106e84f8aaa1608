// examples/ci/policy-review.yml: valid YAML, wired as its README says (triggers on the policy and the sample, posts
// the comment that carries the review's marker, fails on exit 1), and its `vigil review` line, as written, runs
// against the example sample in a real git repository whose base branch is origin/main.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { COMMENT_MARKER } from '../../plugins/governance/review/review-markdown.js';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const ci = suite('examples/ci policy review workflow');
const work = tempDir('vigil-review-ci-');

interface Step { id?: string; name?: string; run?: string; if?: string; uses?: string; env?: Record<string, string> }
interface Workflow {
  on: { pull_request: { paths: string[] } };
  permissions: Record<string, string>;
  jobs: { review: { env: Record<string, string>; steps: Step[] } };
}

const workflow = parse(readFileSync(fromRoot('examples/ci/policy-review.yml'), 'utf8')) as Workflow;
const job = workflow.jobs.review;

/** The words of one shell command line: "$VAR" and $VAR expanded from `env`, double quotes removed, a redirect cut. */
function words(line: string, env: Record<string, string>): string[] {
  const cut = line.replace(/\s>\s*\S+\s*$/, '');
  const out: string[] = [];
  for (const m of cut.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    out.push((m[1] ?? m[2]).replace(/\$([A-Z_]+)/g, (_, name: string) => {
      assert.ok(name in env, `$${name} is not set in the job's env`);
      return env[name];
    }));
  }
  return out;
}

ci('parses as YAML and is wired as its README says', () => {
  assert.ok(workflow.on.pull_request.paths.includes(job.env.POLICY));
  assert.ok(workflow.on.pull_request.paths.includes(job.env.SAMPLE));
  assert.is(workflow.permissions['pull-requests'], 'write');
  assert.is(job.env.BASE_REF, '${{ github.base_ref }}');
  const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))! as Step & { with?: Record<string, unknown> };
  assert.is(checkout.with?.['fetch-depth'], 0);
  const post = job.steps.find((s) => s.name === 'Post or update the comment')!;
  assert.ok(post.run!.includes(`startswith("${COMMENT_MARKER}")`), 'the comment is found again by the review\'s own marker');
  assert.ok(post.run!.includes('-F body=@review.md'));
  const fail = job.steps.find((s) => s.name === 'Fail on weakening')!;
  assert.is(fail.if, "steps.review.outputs.code == '1'");
  assert.match(fail.run!, /exit 1/);
});

ci('its vigil review line runs as written against the example sample', async () => {
  const step = job.steps.find((s) => s.id === 'review')!;
  const line = step.run!.split('\n').find((l) => l.includes('vigil review'))!.trim();
  const argv = words(line, { ...job.env, BASE_REF: 'main' });
  assert.equal(argv.slice(0, 3), ['npx', 'vigil', 'review']);
  assert.ok(argv.includes('--markdown'));

  // A repository with the example policy on main (fetched as origin/main), and a pull request that weakens it.
  const repo = join(work.path, 'repo');
  mkdirSync(join(repo, dirname(job.env.SAMPLE)), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=ci@test', '-c', 'user.name=ci', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  const policy = readFileSync(fromRoot('examples/policy.yaml'), 'utf8');
  writeConfig(repo, policy, job.env.POLICY);
  writeConfig(repo, readFileSync(fromRoot('examples/ci/review-sample.yaml'), 'utf8'), job.env.SAMPLE);
  git('add', '.');
  git('commit', '-q', '-m', 'policy on main');
  git('update-ref', 'refs/remotes/origin/main', 'HEAD');

  const unchanged = await runVigil(argv.slice(2), { cwd: repo });
  assert.is(unchanged.code, 0, unchanged.stderr);
  assert.ok(unchanged.stdout.startsWith(`${COMMENT_MARKER}\n### ✅`), unchanged.stdout.slice(0, 200));

  const weaker = policy.replace('        - $.card.number          # exact path\n', '').replace('restrict: [request_body, response_body, headers]', 'restrict: [request_body]');
  assert.not.equal(weaker, policy);
  writeConfig(repo, weaker, job.env.POLICY);
  const r = await runVigil(argv.slice(2), { cwd: repo });
  assert.is(r.code, 1, r.stderr);
  assert.ok(r.stdout.startsWith(`${COMMENT_MARKER}\n### ❌ Vigil policy review: `), r.stdout.slice(0, 200));
  assert.match(r.stdout, /\| `POST \/api\/payments\/charge` \| request_body \| `\$\.card\.number` \| 1 \|/);
  assert.match(r.stdout, /\| `GET \/admin\/users\/\{id\}\/sessions` \| response_body \| `response_body` \| 1 \|/);
  assert.match(r.stdout, /\| `GET \/admin\/users\/\{id\}\/sessions` \| headers \| `headers` \| 1 \|/);
  assert.not.ok(r.stdout.includes('4111111111111111'));
});

ci.after(() => work.cleanup());
ci.run();

// The prompt-version diff at its bound, in a real `vigil run` (SQLite): two versions of about 256 KB that differ on
// every line, diffed three at a time through the public API and the dashboard, are answered at once with "too
// different to show inline" and the paths of both texts, while /api/health keeps answering within 1 s and the
// process's resident memory stays within a stated ceiling. A small edit of the same long text is diffed in full.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { llmClient, traceItem } from '../support/llm-client.js';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'llm-prompt-diff-test-token';
const MiB = 1024 * 1024;
/**
 * What three diffs at once may add to the process's resident memory: each holds both texts (about 0.5 MB each as
 * JavaScript strings), their line offsets and ids (a few MB at 256 KB of 9-character lines), and its answer (both
 * texts again); the rest is the collector's slack. The diff this replaced kept a copy of its frontier per step:
 * 4 GB for this input.
 */
const RSS_CEILING = 150 * MiB;

interface Ctx {
  work: ReturnType<typeof tempDir>;
  vigil: VigilProcess;
  base: string;
  api: ReturnType<typeof llmClient>;
  key: string;
  texts: string[];
}

const test = suite<Ctx>('llm prompt diff bounds');

/** About `bytes` of lines of 8 random characters: two such texts share almost no line. */
function randomLines(bytes: number, seed: number): string {
  let s = seed;
  const next = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s; };
  const lines: string[] = [];
  for (let size = 0; size < bytes; size += 9) {
    let line = '';
    for (let c = 0; c < 8; c++) line += String.fromCharCode(97 + (next() >>> 16) % 26);
    lines.push(line);
  }
  return lines.join('\n');
}

function rss(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

test.before(async (ctx) => {
  ctx.work = tempDir('vigil-llm-diff-');
  const port = await freePort();
  ctx.base = `http://127.0.0.1:${port}`;
  const file = writeConfig(ctx.work.path, `data_dir: ${ctx.work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm: { persist: { backoff: 50ms } }
`);
  ctx.vigil = await startVigil(file, ctx.base, { cwd: ctx.work.path });
  ctx.api = llmClient(ctx.base);
  const made = await ctx.api.dashboard(TOKEN, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: 'big' }) });
  assert.is(made.status, 201, JSON.stringify(made.body));
  ctx.key = made.body.key;
  // v1 and v2 differ on every line; v3 is v1 with one line changed in its middle.
  // Just under the item schema's 262,144 characters of `prompt_template.raw`.
  const v1 = randomLines(255 * 1024, 1);
  const v2 = randomLines(255 * 1024, 2);
  const middle = v1.indexOf('\n', v1.length / 2) + 1;
  const v3 = `${v1.slice(0, middle)}changed line${v1.slice(v1.indexOf('\n', middle))}`;
  ctx.texts = [v1, v2, v3];
  for (const raw of ctx.texts) {
    const r = await ctx.api.ingest(ctx.key, { traces: [traceItem({ prompt_template: { name: 'long', raw } })] });
    assert.is(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.errors ?? [], [], JSON.stringify(r.body));
    await ctx.api.waitForTraces(ctx.key, r.body.ids, 30_000);
  }
});

test.after(async (ctx) => {
  await ctx.vigil?.stop('SIGKILL');
  ctx.work?.cleanup();
});

test('three diffs of 256 KB versions that differ everywhere: "too different", at once, with /api/health answering within 1 s and RSS bounded', async (ctx) => {
  const pid = ctx.vigil.proc.pid!;
  const before = rss(pid);
  let peak = before;
  let slowestHealth = 0;
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const started = performance.now();
      const res = await fetch(`${ctx.base}/api/health`);
      await res.arrayBuffer();
      slowestHealth = Math.max(slowestHealth, performance.now() - started);
      peak = Math.max(peak, rss(pid));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const diff = (path: string, dashboard: boolean) => (dashboard ? ctx.api.dashboard(TOKEN, path) : ctx.api.get(ctx.key, path));
  const asked = [
    diff('/api/v1/prompt-templates/long/versions/2', false),
    diff('/api/v1/prompt-templates/long/versions/1?against=2', false),
    diff('/api/llm/projects/big/prompt-templates/long/versions/2?against=1', true),
  ];
  const answers = await Promise.all(asked);
  // A few more rounds: repeated diffs come from the cache, and none may add to the heap for good.
  for (let round = 0; round < 5; round++) await Promise.all(asked.map((_, i) => diff(['/api/v1/prompt-templates/long/versions/2', '/api/v1/prompt-templates/long/versions/1?against=2'][i % 2], false)));
  probing = false;
  await prober;

  for (const [i, r] of answers.entries()) {
    assert.is(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.is(r.body.diff, null, `answer ${i}`);
    assert.is(r.body.too_large, true, `answer ${i}`);
    assert.is(r.body.diff_omitted.code, 'VIGIL_ERR_LLM_DIFF_TOO_LARGE');
    assert.match(r.body.diff_omitted.message, /too different to show inline/);
    assert.match(r.body.diff_omitted.message, /download both/);
    // The rest of the answer is whole: the version's text is there.
    assert.is(r.body.text, ctx.texts[r.body.version - 1]);
  }
  assert.equal(answers[0].body.diff_omitted.downloads, {
    from: '/api/v1/prompt-templates/long/versions/1/text', to: '/api/v1/prompt-templates/long/versions/2/text',
  });
  assert.equal(answers[2].body.diff_omitted.downloads, {
    from: '/api/llm/projects/big/prompt-templates/long/versions/1/text', to: '/api/llm/projects/big/prompt-templates/long/versions/2/text',
  });
  assert.ok(slowestHealth < 1000, `the slowest /api/health answer took ${Math.round(slowestHealth)} ms`);
  assert.ok(peak - before < RSS_CEILING, `RSS grew by ${Math.round((peak - before) / MiB)} MB (from ${Math.round(before / MiB)} MB)`);
});

test('the download paths give each version\'s text, as an attachment, to the key and to the dashboard', async (ctx) => {
  const pub = await fetch(`${ctx.base}/api/v1/prompt-templates/long/versions/2/text`, { headers: { 'X-Service-Project-Key': ctx.key } });
  assert.is(pub.status, 200);
  assert.match(pub.headers.get('content-type')!, /^text\/plain; charset=utf-8/);
  assert.match(pub.headers.get('content-disposition')!, /^attachment; filename="long-v2\.txt"/);
  assert.is(await pub.text(), ctx.texts[1]);
  const board = await ctx.api.dashboard(TOKEN, '/api/llm/projects/big/prompt-templates/long/versions/1/text');
  assert.is(board.status, 200);
  assert.is(board.body, ctx.texts[0]);
  assert.is((await ctx.api.get(ctx.key, '/api/v1/prompt-templates/long/versions/9/text')).status, 404);
  assert.is((await ctx.api.get(undefined, '/api/v1/prompt-templates/long/versions/1/text')).status, 401);
});

test('one line changed in the same 256 KB text: the diff is shown in full, one hunk', async (ctx) => {
  const r = await ctx.api.get(ctx.key, '/api/v1/prompt-templates/long/versions/3?against=1');
  assert.is(r.status, 200);
  assert.is(r.body.too_large, false);
  assert.is(r.body.diff_omitted, null);
  const lines = (r.body.diff as string).split('\n');
  assert.is(lines.filter((l) => l.startsWith('@@')).length, 1);
  assert.equal(lines.filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l)).map((l) => l[0]), ['-', '+']);
  assert.ok(lines.includes('+changed line'));
  assert.is(lines[0], '--- long v1');
});

test.run();

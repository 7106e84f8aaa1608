// The governance corpus's generator: every case through the TypeScript engine, on the path the Express and Koa
// middleware take (middleware/core: loadMiddlewarePolicy, decide, the bounded copies, rawExchange, governBatch,
// recordJson), and the corpus.json text that holds the cases with the records they must produce.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMiddlewarePolicy } from '../../../middleware/core/load-policy.js';
import { BoundedCopy } from '../../../gateway/exchange/bounded-copy.js';
import { rawExchange } from '../../../gateway/exchange/raw-exchange.js';
import { downstreamResponseHead, mayHaveBody } from '../../../gateway/exchange/response-headers.js';
import governBatch from '../../../gateway/govern/govern-worker.js';
import type { GovernTask } from '../../../gateway/govern/types.js';
import { recordJson } from '../../../gateway/records/governed-record.js';
import { extractLabels } from '../../../policies/extract-labels.js';
import type { CorpusCase, HeaderPair } from './case-model.js';
import { allCases } from './cases.js';
import { CONFIGS } from './configs.js';
import { normalizeRecord } from './normalize-record.js';

export const CORPUS_VERSION = 1;

/** The corpus file's path in the repository, and the command that writes it. */
export const CORPUS_PATH = 'tests/fixtures/governance-corpus/corpus.json';
export const REGENERATE = 'node scripts/build.mjs && node scripts/governance-corpus.mjs';

const flat = (pairs: readonly HeaderPair[]): string[] => pairs.flatMap(([n, v]) => [n, v]);
const base64 = (bytes: Uint8Array | undefined) => (bytes === undefined ? {} : { body_base64: Buffer.from(bytes).toString('base64') });

/** A body as the interception copies it: the chunk seen, bounded by max_body_bytes (none when empty). */
function copyOf(body: Uint8Array | undefined, maxBodyBytes: number, declared: string | undefined): BoundedCopy | null {
  if (body === undefined || body.length === 0) return null;
  const n = declared === undefined ? -1 : Number(declared);
  const copy = new BoundedCopy(maxBodyBytes, Number.isSafeInteger(n) && n >= 0 ? n : -1);
  copy.push(body);
  return copy;
}

const header = (pairs: readonly HeaderPair[], lower: string) => pairs.find(([n]) => n.toLowerCase() === lower)?.[1];

/** The records `cases` (all of one config) make, normalized; null for a case that makes none. */
async function recordsOf(configText: string, cases: readonly CorpusCase[]): Promise<(string | null)[]> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-corpus-'));
  try {
    const file = join(dir, 'vigil.yaml');
    writeFileSync(file, configText);
    const policy = loadMiddlewarePolicy(file, {}, dir);
    const out: (string | null)[] = [];
    for (const c of cases) {
      const decision = policy.compiled.decide(c.request.method, c.request.target);
      if (!decision.captureRequestBody && !decision.captureResponseBody && !decision.captureHeaders) {
        out.push(null);
        continue;
      }
      const requestHeaders = flat(c.request.headers);
      const hasBody = mayHaveBody(c.request.method, c.response.status);
      const exchange = rawExchange({
        decision, time: 0, method: c.request.method, target: c.request.target,
        labels: extractLabels(decision, requestHeaders), requestHeaders,
        responseHeaders: decision.captureHeaders ? downstreamResponseHead(flat(c.response.headers)).headers : null,
        status: c.response.status, durationMs: 0,
        requestCopy: decision.captureRequestBody ? copyOf(c.request.body, policy.maxBodyBytes, header(c.request.headers, 'content-length')) : null,
        responseCopy: decision.captureResponseBody && hasBody ? copyOf(c.response.body, policy.maxBodyBytes, header(c.response.headers, 'content-length')) : null,
        requestEnded: true, responseEnded: true, error: undefined,
      });
      const result = await governBatch({ policy: policy.telemetry as GovernTask['policy'], exchanges: [exchange] });
      out.push(normalizeRecord(recordJson(result.records[0])));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The corpus as the object corpus.json holds (CORPUS_FORMAT.md). */
export async function buildCorpus(cases: readonly CorpusCase[] = allCases()): Promise<object> {
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`governance corpus: two cases are named ${JSON.stringify(c.name)}`);
    names.add(c.name);
    if (CONFIGS[c.config] === undefined) throw new Error(`governance corpus: case ${JSON.stringify(c.name)} names no config of configs.ts (${c.config})`);
  }
  const records = new Map<CorpusCase, string | null>();
  for (const name of Object.keys(CONFIGS)) {
    const group = cases.filter((c) => c.config === name);
    const made = await recordsOf(CONFIGS[name], group);
    group.forEach((c, i) => records.set(c, made[i]));
  }
  return {
    version: CORPUS_VERSION,
    configs: CONFIGS,
    cases: cases.map((c) => ({
      name: c.name,
      family: c.family,
      config: c.config,
      request: { method: c.request.method, target: c.request.target, headers: c.request.headers, ...base64(c.request.body) },
      response: { status: c.response.status, headers: c.response.headers, ...base64(c.response.body) },
      record: records.get(c)!,
    })),
  };
}

/** corpus.json's text: two-space indented, one case's record on one line, a final newline. */
export async function corpusText(): Promise<string> {
  return `${JSON.stringify(await buildCorpus(), null, 2)}\n`;
}

// `vigil mock --spec FILE`: serves the API an OpenAPI 3.0/3.1 document describes, stateful where it has collections,
// until SIGINT or SIGTERM.
import { tryParseByteSize, type CommandArgs, type CommandIo } from '@vigil/plugin-sdk';
import { documentFrom } from '../openapi/document-source.js';
import type { LlmSettings } from './llm-examples.js';
import { SpecError } from './resolve-schema.js';
import { DEFAULT_STORE_BOUNDS } from './collection-store.js';
import { DEFAULT_MAX_BODY_BYTES, startMock, type MockServer } from './start-mock.js';

export const MOCK_USAGE = 'vigil mock (--spec FILE | -config FILE) [--port 4010] [--host 127.0.0.1] [--seed N] [--items N] [--quiet]\n'
  + '           [--max-items 1000] [--max-bytes 16mb] [--max-body 1mb]\n'
  + '           [--llm [--llm-base-url URL] [--llm-model MODEL]]   (key from VIGIL_MOCK_LLM_API_KEY or OPENAI_API_KEY)';
const DEFAULT_LLM_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_LLM_MODEL = 'gpt-4o-mini';
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

const wholeNumber = (v: unknown, min: number, max: number): number | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
};
const KB = 1024;
const GB = 1024 ** 3;
/** A byte size flag (`512kb`, `16mb`) from 1 KiB to `max`, its default when absent; null when out of range or not a size. */
const byteSize = (v: unknown, fallback: number, max: number): number | null => {
  if (v === undefined) return fallback;
  const n = tryParseByteSize(v);
  return n !== undefined && n >= KB && n <= max ? n : null;
};

export async function runMock(args: CommandArgs, io: CommandIo): Promise<number> {
  const usage = (why: string) => { io.err(`vigil mock: ${why}\n\nUsage: ${MOCK_USAGE}\n`); return 2; };
  const f = args.flags;
  if (args.positionals.length) return usage(`unexpected argument "${args.positionals[0]}"`);
  const port = f.port === undefined ? 4010 : wholeNumber(f.port, 0, 65535);
  if (port === null) return usage(`--port takes 0 to 65535, got ${String(f.port)}`);
  const seed = f.seed === undefined ? 1 : wholeNumber(f.seed, 0, 2 ** 32 - 1);
  if (seed === null) return usage(`--seed takes a whole number from 0 to 4294967295, got ${String(f.seed)}`);
  const items = f.items === undefined ? 0 : wholeNumber(f.items, 0, 1000);
  if (items === null) return usage(`--items takes 0 to 1000, got ${String(f.items)}`);
  const maxItems = f['max-items'] === undefined ? DEFAULT_STORE_BOUNDS.maxItems : wholeNumber(f['max-items'], 1, 1_000_000);
  if (maxItems === null) return usage(`--max-items takes 1 to 1000000 items per collection, got ${String(f['max-items'])}`);
  if (items > maxItems) return usage(`--items ${items} is more than --max-items ${maxItems} lets a collection hold`);
  const maxStoredBytes = byteSize(f['max-bytes'], DEFAULT_STORE_BOUNDS.maxBytes, 4 * GB);
  if (maxStoredBytes === null) return usage(`--max-bytes takes a size from 1kb to 4gb such as 16mb, got ${String(f['max-bytes'])}`);
  const maxBodyBytes = byteSize(f['max-body'], DEFAULT_MAX_BODY_BYTES, GB);
  if (maxBodyBytes === null) return usage(`--max-body takes a size from 1kb to 1gb such as 1mb, got ${String(f['max-body'])}`);
  const host = f.host === undefined ? '127.0.0.1' : f.host;
  if (typeof host !== 'string' || !host) return usage('--host takes an address');
  const llmFlags = ['llm-base-url', 'llm-model'].filter((k) => f[k] !== undefined);
  if (f.llm !== true && llmFlags.length) return usage(`--${llmFlags[0]} is for --llm`);
  let llm: LlmSettings | undefined;
  if (f.llm === true) {
    const baseUrl = f['llm-base-url'] === undefined ? DEFAULT_LLM_BASE_URL : f['llm-base-url'];
    if (typeof baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(baseUrl)) return usage(`--llm-base-url takes an http(s) URL, got ${String(baseUrl)}`);
    const model = f['llm-model'] === undefined ? DEFAULT_LLM_MODEL : f['llm-model'];
    if (typeof model !== 'string' || !model) return usage('--llm-model takes a model name');
    const apiKey = io.env.VIGIL_MOCK_LLM_API_KEY || io.env.OPENAI_API_KEY || undefined;
    // A local OpenAI-compatible server (Ollama, vLLM, a fake) may need no key; OpenAI itself always does.
    if (!apiKey && baseUrl === DEFAULT_LLM_BASE_URL) return usage('--llm with OpenAI needs a key in VIGIL_MOCK_LLM_API_KEY or OPENAI_API_KEY');
    llm = { baseUrl, model, apiKey, seed, timeoutMs: 60_000, concurrency: 4, attempts: 3 };
  }
  const quiet = f.quiet === true;
  const source = await documentFrom(args, io);
  if (!source.ok) {
    if (source.usage) return usage(source.message);
    io.err(`vigil mock: ${source.message}\n`);
    return source.exit;
  }
  let mock: MockServer;
  try {
    const log = (line: string) => { if (!quiet || line.startsWith('llm:')) io.err(`${line}\n`); };
    mock = await startMock(source.document, { host, port, seed, items, maxItems, maxStoredBytes, maxBodyBytes, source: source.name, llm, log });
  } catch (err) {
    if (err instanceof SpecError) { io.err(`vigil mock: ${err.message}\n`); return 2; }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      io.err(`vigil mock: cannot listen on ${host}:${port}: ${(err as Error).message}\n`);
      return 1;
    }
    throw err;
  }
  const stateful = mock.collections.length ? `stateful: ${mock.collections.join(', ')}` : 'no stateful collections';
  io.out(`vigil mock: serving ${source.name} on ${mock.url} (${mock.operations} operations; ${stateful}; seed ${seed})\n`);
  const handlers = new Map<string, () => void>();
  const signal = await new Promise<string>((done) => {
    for (const s of STOP_SIGNALS) { handlers.set(s, () => done(s)); process.once(s, handlers.get(s)!); }
  });
  // The other signal's listener goes too: a second signal while closing ends the process by its default action.
  for (const [s, handler] of handlers) process.off(s, handler);
  await mock.close();
  io.err(`vigil mock: ${signal}: stopped\n`);
  return 0;
}

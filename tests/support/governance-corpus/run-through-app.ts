// Runs the governance corpus through a real stack and compares the stored records byte for byte (after the
// normalization of normalize-record.ts): through an app in any language that follows the protocol (README.md,
// "Running it through an app"), shipping to a real `vigil run` agent, or through a real `vigil run` gateway in
// front of an upstream that plays the cases' responses.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse, stringify } from 'yaml';
import { freePort, scaledTimeout, waitFor } from '../net.js';
import { tempDir } from '../tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../vigil-process.js';
import { responseBytes, sendCase } from './case-wire.js';
import { casesByConfig, CORPUS_FILE, loadCorpus, type CorpusEntry } from './corpus-file.js';
import { matchRecords, type Mismatch } from './record-match.js';

const DASHBOARD_TOKEN = 'corpus-dashboard-token';
const INGEST_TOKEN = 'corpus-ingest-token-0123456789';
/** How long a request may take to be answered, and the records of a config to arrive. */
const ANSWER_MS = 10_000;
const RECORDS_MS = 20_000;

export interface CorpusRunOptions {
  /**
   * Only the cases this returns true for (default: all). An app is then handed a corpus file of these cases alone,
   * so its Nth request is still the Nth case it is sent.
   */
  only?(c: CorpusEntry): boolean;
  /** The corpus file (default: the repository's). */
  corpusFile?: string;
}

export interface CorpusReport {
  /** What ran it: `gateway`, or the app's command line. */
  stack: string;
  /** Cases sent. */
  cases: number;
  mismatches: Mismatch[];
  /** Answers that were not the case's status (the app or upstream did not play its part). */
  badAnswers: string[];
  /** Wall time of the run, in milliseconds (processes started, cases sent, records read). */
  ms: number;
}

/** A report as text: one block per mismatching case, with its diff. Empty when all passed. */
export function formatReport(report: CorpusReport): string {
  if (report.mismatches.length === 0 && report.badAnswers.length === 0) return '';
  const lines = [`${report.stack}: ${report.mismatches.length} of ${report.cases} cases differ${report.badAnswers.length ? `, ${report.badAnswers.length} answers were wrong` : ''}`];
  for (const a of report.badAnswers) lines.push(`  answer: ${a}`);
  for (const m of report.mismatches) lines.push(`  ${m.case}: ${m.diff}`);
  return lines.join('\n');
}

/** Reads the records a `vigil run` control plane stored, skipping those `seen` (and adding the new ones to it). */
class StoredRecords {
  readonly seen = new Set<string>();
  constructor(readonly controlPlane: string) {}

  private get(path: string): Promise<Response> {
    return fetch(`${this.controlPlane}${path}`, { headers: { authorization: `Bearer ${DASHBOARD_TOKEN}` } });
  }

  /** Ids of the records stored since the last call, newest first (pages until one holds only known ids). */
  private async newIds(): Promise<string[]> {
    const fresh: string[] = [];
    let cursor = '';
    for (;;) {
      const res = await this.get(`/api/gateway/records?limit=200${cursor}`);
      if (res.status !== 200) throw new Error(`GET /api/gateway/records: ${res.status} ${await res.text()}`);
      const page = (await res.json()) as { data: { id: string }[]; next: string | null };
      const unseen = page.data.filter((r) => !this.seen.has(r.id));
      fresh.push(...unseen.map((r) => r.id));
      if (unseen.length === 0 || page.next === null) return fresh;
      cursor = `&before=${encodeURIComponent(page.next)}`;
    }
  }

  /** The stored JSON text of each new record (exactly as stored: the route answers the stored text). */
  async take(): Promise<string[]> {
    const ids = await this.newIds();
    const texts: string[] = [];
    for (const id of ids) {
      const res = await this.get(`/api/gateway/records/${encodeURIComponent(id)}`);
      if (res.status !== 200) throw new Error(`GET /api/gateway/records/${id}: ${res.status}`);
      texts.push(await res.text());
      this.seen.add(id);
    }
    return texts;
  }

  /** Waits until `count` new records are stored (or the deadline passes), and returns them all. */
  async await(count: number, settle: () => Promise<void>): Promise<string[]> {
    const got: string[] = [];
    const deadline = Date.now() + scaledTimeout(RECORDS_MS);
    while (got.length < count && Date.now() < deadline) {
      got.push(...await this.take());
      if (got.length < count) await new Promise((r) => setTimeout(r, 50));
    }
    // Whatever is still on its way (a record no case expects) is in once the sender has flushed and stopped.
    await settle();
    got.push(...await this.take());
    return got;
  }
}

/** The `vigil run` agent that middleware ship to: one rule that captures all and redacts nothing, so records are stored as sent. */
export interface CorpusAgent {
  url: string;
  token: string;
  stop(): Promise<void>;
  /** @internal */
  records: StoredRecords;
}

export async function startCorpusAgent(): Promise<CorpusAgent> {
  const work = tempDir('vigil-corpus-agent-');
  const cp = `http://127.0.0.1:${await freePort()}`;
  const file = writeConfig(work.path, stringify({
    control_plane: { listen: cp.slice('http://'.length), token: DASHBOARD_TOKEN },
    capture: { batch_delay: '5ms', ingest_token: INGEST_TOKEN },
    data_dir: join(work.path, 'data'),
    rules: [{ name: 'stored-as-sent', match: { path: '/**' } }],
  }));
  const vigil = await startVigil(file, cp);
  return {
    url: cp, token: INGEST_TOKEN, records: new StoredRecords(cp),
    async stop() { await vigil.stop(); work.cleanup(); },
  };
}

/** A started app: its output so far, and a stop that lets it flush (SIGTERM), then kills it. */
interface AppProcess { output(): string; exited(): boolean; stop(): Promise<void> }

function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv): AppProcess {
  const proc = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => { out += d; });
  proc.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<void>((r) => proc.on('close', () => r()));
  let dead = false;
  void exited.then(() => { dead = true; });
  return {
    output: () => out,
    exited: () => dead,
    async stop() {
      if (dead) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), scaledTimeout(10_000));
      await exited;
      clearTimeout(timer);
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s: Socket = connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}

/** Sends each case in order, one at a time; the answers that were not the case's status. */
async function sendAll(port: number, cases: readonly CorpusEntry[]): Promise<string[]> {
  const bad: string[] = [];
  for (const c of cases) {
    const a = await sendCase(port, c, scaledTimeout(ANSWER_MS));
    if (a.status !== c.response.status || a.error !== undefined) bad.push(`${c.name}: status ${a.status} (expected ${c.response.status})${a.error ? `, ${a.error}` : ''}`);
  }
  return bad;
}

const expectedCount = (cases: readonly CorpusEntry[]) => cases.filter((c) => c.record !== null).length;

/**
 * Runs the corpus through an app: for each config, `command args` is started with the protocol's environment
 * (CORPUS_FILE, CORPUS_CONFIG, VIGIL_CONFIG, VIGIL_AGENT_URL, VIGIL_INGEST_TOKEN, PORT) plus `extraEnv`, sent that
 * config's cases, stopped (SIGTERM: it flushes), and the records `agent` stored are compared with the corpus's.
 */
export async function runCorpusThroughApp(
  agent: CorpusAgent, command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}, options: CorpusRunOptions = {},
): Promise<CorpusReport> {
  const work = tempDir('vigil-corpus-app-');
  let corpusFile = options.corpusFile ?? CORPUS_FILE;
  let corpus = loadCorpus(corpusFile);
  if (options.only !== undefined) {
    corpus = { ...corpus, cases: corpus.cases.filter(options.only) };
    corpusFile = join(work.path, 'corpus.json');
    writeFileSync(corpusFile, JSON.stringify(corpus));
  }
  const report: CorpusReport = { stack: [command, ...args].join(' '), cases: 0, mismatches: [], badAnswers: [], ms: 0 };
  const started = performance.now();
  try {
    await agent.records.take(); // what was stored before is no part of this run
    for (const [config, cases] of casesByConfig(corpus)) {
      const configFile = writeConfig(work.path, corpus.configs[config], `${config}.yaml`);
      const port = await freePort();
      const app = startProcess(command, args, {
        CORPUS_FILE: corpusFile, CORPUS_CONFIG: config, VIGIL_CONFIG: configFile, VIGIL_AGENT_URL: agent.url,
        VIGIL_INGEST_TOKEN: agent.token, PORT: String(port), ...extraEnv,
      });
      try {
        await waitFor(async () => {
          if (app.exited()) throw new Error(`the app exited before it listened:\n${app.output()}`);
          return canConnect(port);
        }, { timeoutMs: 30_000, what: `${report.stack} (config ${config}) to listen on ${port}` });
        report.badAnswers.push(...await sendAll(port, cases));
        const stored = await agent.records.await(expectedCount(cases), () => app.stop());
        report.mismatches.push(...matchRecords(cases, stored).map((m) => ({ ...m, case: `[${config}] ${m.case}` })));
        report.cases += cases.length;
      } finally {
        await app.stop();
      }
    }
  } finally {
    work.cleanup();
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** An upstream that answers the Nth request it receives with case N's response, byte for byte. */
async function playingUpstream(cases: readonly CorpusEntry[]): Promise<{ port: number; close(): void }> {
  let served = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        const total = end + 4 + (length ? Number(length[1]) : 0);
        if (pending.length < total) return;
        pending = pending.subarray(total);
        const c = cases[served++];
        socket.write(c === undefined ? 'HTTP/1.1 599 No Case\r\nContent-Length: 0\r\n\r\n' : responseBytes(c));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    close() { for (const s of sockets) s.destroy(); server.close(); },
  };
}

/**
 * Runs the corpus through a real gateway: for each config, an upstream that plays its cases' responses and a
 * `vigil run` with that config's rules (and capture.max_body_bytes) in front of it; the records it stored are
 * compared with the corpus's.
 */
export async function runCorpusThroughGateway(options: CorpusRunOptions = {}): Promise<CorpusReport> {
  const corpus = loadCorpus(options.corpusFile ?? CORPUS_FILE);
  const work = tempDir('vigil-corpus-gateway-');
  const report: CorpusReport = { stack: 'gateway', cases: 0, mismatches: [], badAnswers: [], ms: 0 };
  const started = performance.now();
  try {
    for (const [config, cases] of casesByConfig(corpus, options.only)) {
      const upstream = await playingUpstream(cases);
      const proxyPort = await freePort();
      const cp = `http://127.0.0.1:${await freePort()}`;
      const doc = parse(corpus.configs[config]) as Record<string, any>;
      const dataDir = join(work.path, config);
      mkdirSync(dataDir, { recursive: true });
      const file = join(work.path, `${config}.yaml`);
      writeFileSync(file, stringify({
        ...doc,
        service: { upstream: `http://127.0.0.1:${upstream.port}`, listen: `127.0.0.1:${proxyPort}` },
        control_plane: { listen: cp.slice('http://'.length), token: DASHBOARD_TOKEN },
        capture: { ...(doc.capture ?? {}), batch_delay: '5ms' },
        data_dir: dataDir,
      }));
      let vigil: VigilProcess | undefined;
      try {
        vigil = await startVigil(file, cp);
        report.badAnswers.push(...await sendAll(proxyPort, cases));
        const records = new StoredRecords(cp);
        const stored = await records.await(expectedCount(cases), async () => {
          // The gateway's lane stores within its batch_delay; a little longer lets a stray record show.
          await new Promise((r) => setTimeout(r, 200));
        });
        report.mismatches.push(...matchRecords(cases, stored).map((m) => ({ ...m, case: `[${config}] ${m.case}` })));
        report.cases += cases.length;
      } finally {
        await vigil?.stop();
        upstream.close();
      }
    }
  } finally {
    work.cleanup();
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

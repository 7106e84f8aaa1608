/**
 * The demo, start to stop: the shop API first (the gateway needs its address), then the runtime with the demo
 * config, then the traffic. Ctrl+C stops them the other way round: no new requests, the gateway drains, the API
 * closes, and the temporary data directory goes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseListenAddress, type CommandIo } from '@vigil/plugin-sdk';
import type { Composition } from '../../runtime/composition.js';
import type { Runtime } from '../../runtime/runtime.js';
import { exitBySignal } from '../../runtime/cli/exit-by-signal.js';
import { reportStartupError } from '../../runtime/cli/report-error.js';
import { loadConfigFile } from '../../runtime/config/index.js';
import type { DemoSettings } from './demo-command.js';
import { startDemoApi, type DemoApi } from './demo-api.js';
import { TENANTS } from './demo-data.js';
import { LLM_PROJECT } from './llm-calls.js';
import { startLlmTraffic, type LlmTraffic } from './llm-traffic.js';
import { startTraffic, type Traffic } from './traffic.js';

/** examples/demo/vigil.yaml, from dist/app/demo/. */
export const DEMO_CONFIG = fileURLToPath(new URL('../../../examples/demo/vigil.yaml', import.meta.url));
const BURST = 250;
/** LLM calls a second after the history, for `--rate` requests a second through the gateway. */
const llmRate = (rate: number): number => rate / 4;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** `preferred` when it is free on 127.0.0.1, else a port the system picks. */
function freePort(preferred: number): Promise<number> {
  const attempt = (port: number): Promise<number | undefined> => new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const bound = (srv.address() as { port: number }).port;
      srv.close(() => done(bound));
    });
  });
  return attempt(preferred).then((p) => p ?? attempt(0).then((any) => any ?? 0));
}

/** Where clients reach the gateway that `service.listen` describes. */
function gatewayUrl(listen: unknown): string {
  const address = parseListenAddress(listen ?? 8080);
  const host = !address.host || address.host === '0.0.0.0' || address.host === '::' ? '127.0.0.1' : address.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

const shown = (file: string, cwd: string): string => {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') ? rel : file;
};

/**
 * The key of the demo's LLM project: VIGIL_DEMO_LLM_KEY when set (so that you can read the traces with it), else one
 * made for this run that never leaves the process: the config gets only its SHA-256 (VIGIL_DEMO_LLM_KEY_SHA256).
 */
function llmKey(env: NodeJS.ProcessEnv): string | { error: string } {
  const given = env.VIGIL_DEMO_LLM_KEY;
  if (given === undefined || given === '') return `vk_${randomBytes(32).toString('base64url')}`;
  return given.length >= 16 ? given : { error: 'VIGIL_DEMO_LLM_KEY must be at least 16 characters (it is the LLM project\'s key)' };
}

/** Whether the config declares an LLM project with this key's hash (examples/demo/vigil.yaml does, through its variable). */
function hasLlmProject(data: unknown, keySha256: string): boolean {
  const projects = (data as { llm?: { projects?: { key_sha256?: unknown }[] } } | null)?.llm?.projects;
  return Array.isArray(projects) && projects.some((p) => p?.key_sha256 === keySha256);
}

interface BannerFacts {
  dashboard: string; gateway: string; api: DemoApi; config: string; dataDir: string; temporary: boolean; settings: DemoSettings;
  cwd: string; llm: boolean; controlPlane: string;
}

function banner(o: BannerFacts): string {
  const acme = TENANTS[0];
  const traffic = !o.settings.traffic ? 'none (--no-traffic): the gateway waits for your requests'
    : `a first burst of ${BURST} requests from ${TENANTS.length} tenants, then about ${o.settings.rate} a second (--rate N)`;
  const llm = !o.llm ? `none: ${shown(o.config, o.cwd)} has no LLM project keyed by VIGIL_DEMO_LLM_KEY_SHA256`
    : !o.settings.traffic ? `project ${LLM_PROJECT}, no traces (--no-traffic)`
      : `traces of two prompt templates (support-reply, summarise-ticket), three versions each, to the project ${LLM_PROJECT}`;
  const body = JSON.stringify({ amount: 1250, currency: 'EUR', card: { number: '4242 4242 4242 4242', cvc: '123' }, customer: { email: 'you@example.com' } });
  return [
    'Vigil demo: a small shop API, the gateway in front of it with the demo policy, and its clients.',
    '',
    o.dashboard,
    '',
    `  Gateway   ${o.gateway}  ->  the demo API at ${o.api.url}`,
    `  Policy    ${shown(o.config, o.cwd)}`,
    `  Data      ${o.dataDir}${o.temporary ? ' (removed on exit; --data-dir DIR keeps it)' : ''}`,
    `  Traffic   ${traffic}`,
    `  LLM       ${llm}`,
    '',
    'Send a request of your own through the gateway: the API gets it as sent, the stored record has the card and the',
    'email masked (the dashboard\'s Requests page shows it):',
    '',
    `  curl -s ${o.gateway}/api/payments/charge -H 'Authorization: Bearer ${acme.key}' -H 'X-Tenant-Id: ${acme.id}' \\`,
    `    -H 'Content-Type: application/json' -d '${body}'`,
    '',
    ...(o.llm ? [
      `The LLM traces are stored redacted (emails and card numbers masked); the dashboard's LLM pages show them. The`,
      `project key stays in this process: start the demo with VIGIL_DEMO_LLM_KEY=<16+ characters> to read them by API:`,
      '',
      `  curl -s ${o.controlPlane}/api/v1/traces -H "X-Service-Project-Key: $VIGIL_DEMO_LLM_KEY"`,
      '',
    ] : []),
    'Ctrl+C stops the demo.',
    '',
  ].join('\n');
}

export async function runDemo(settings: DemoSettings, composition: Composition, io: CommandIo): Promise<number> {
  const config = settings.config ? resolve(io.cwd, settings.config) : DEMO_CONFIG;
  const temporary = settings.dataDir === undefined;
  const dataDir = temporary ? mkdtempSync(join(tmpdir(), 'vigil-demo-')) : resolve(io.cwd, settings.dataDir!);
  const removeData = (): void => { if (temporary) rmSync(dataDir, { recursive: true, force: true }); };
  const [cpPort, proxyPort] = [settings.port ?? await freePort(9095), settings.proxyPort ?? await freePort(8080)];
  const key = llmKey(io.env);
  if (typeof key !== 'string') {
    io.err(`vigil demo: ${key.error}\n`);
    removeData();
    return 2;
  }
  const keySha256 = createHash('sha256').update(key).digest('hex');
  const api = await startDemoApi();
  const env: NodeJS.ProcessEnv = {
    ...io.env,
    VIGIL_DEMO_UPSTREAM: api.url,
    VIGIL_DEMO_LISTEN: `127.0.0.1:${cpPort}`,
    VIGIL_DEMO_PROXY: `127.0.0.1:${proxyPort}`,
    VIGIL_DEMO_DATA_DIR: dataDir,
    VIGIL_DEMO_LLM_KEY_SHA256: keySha256,
  };

  let runtime: Runtime;
  let announced: string | undefined;
  let gateway: string;
  let llm = false;
  try {
    const data = loadConfigFile(config, env).data;
    const service = (data as { service?: { listen?: unknown } }).service;
    llm = hasLlmProject(data, keySha256);
    if (!service) {
      io.err(`vigil demo: ${shown(config, io.cwd)} has no "service" section: the demo needs the gateway (service.upstream: \${VIGIL_DEMO_UPSTREAM})\n`);
      await api.close();
      removeData();
      return 2;
    }
    gateway = gatewayUrl(service.listen);
    const { Runtime } = await import('../../runtime/runtime.js');
    runtime = await Runtime.start(config, { composition, env, announce: (line) => { announced = line; } });
  } catch (err) {
    await api.close();
    removeData();
    const code = reportStartupError(err, io);
    if (settings.port !== undefined || settings.proxyPort !== undefined) {
      io.err('vigil demo: when a port is taken, choose another with --port or --proxy-port, or leave them out: the demo then finds free ones\n');
    }
    return code;
  }

  io.out(banner({
    dashboard: announced ?? `Dashboard: ${runtime.url}/`, gateway, api, config, dataDir, temporary, settings, cwd: io.cwd, llm, controlPlane: runtime.url,
  }));

  let traffic: Traffic | undefined;
  if (settings.traffic) {
    traffic = startTraffic({
      target: gateway, rate: settings.rate, burst: BURST,
      onBurst: ({ requests, ms }) => io.out(`First burst: ${requests} requests answered in ${(ms / 1000).toFixed(1)} s. Every gateway page has data now.\n`),
    });
  }

  let llmTraffic: LlmTraffic | undefined;
  if (settings.traffic && llm) {
    llmTraffic = startLlmTraffic({
      controlPlane: runtime.url, key, rate: llmRate(settings.rate),
      onHistory: ({ traces }) => io.out(`LLM history: ${traces} traces of two prompt templates, three versions each, accepted.\n`),
    });
  }

  let reloads: Promise<unknown> = Promise.resolve();
  const reload = () => { runtime.log.warn('SIGHUP: reloading the config file'); reloads = reloads.then(() => runtime.reload()); };
  process.on('SIGHUP', reload);
  const reason = await new Promise<(typeof STOP_SIGNALS)[number]>((done) => {
    for (const signal of STOP_SIGNALS) process.once(signal, () => done(signal));
  });
  for (const signal of STOP_SIGNALS) process.once(signal, () => { io.err('vigil demo: second signal: exiting without draining\n'); void exitBySignal(signal); });
  process.off('SIGHUP', reload);
  process.on('SIGHUP', () => {});
  io.out('\nStopping the demo…\n');
  await Promise.all([traffic?.stop(), llmTraffic?.stop()]);
  const { busyPools } = await runtime.stop();
  await api.close();
  removeData();
  if (busyPools.length) return exitBySignal(reason);
  const stats = traffic?.stats();
  io.out(`Stopped${stats ? ` after ${stats.sent.toLocaleString('en')} requests` : ''}.\n`);
  // Exit explicitly, as `vigil run` does: a stray handle must not keep a stopped demo alive.
  process.exit(0);
}

/**
 * The demo, start to stop: the shop API first (the gateway needs its address), then the runtime with the demo
 * config, then the traffic. Ctrl+C stops them the other way round: no new requests, the gateway drains, the API
 * closes, and the temporary data directory goes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseListenAddress, type CommandIo } from '@vigil/plugin-sdk';
import type { Composition } from '../../runtime/composition.js';
import type { Runtime } from '../../runtime/runtime.js';
import { exitBySignal } from '../../runtime/cli/exit-by-signal.js';
import { reportStartupError } from '../../runtime/cli/report-error.js';
import { loadConfigFile } from '../../runtime/config/index.js';
import type { RuleConfig } from '../../policies/schema.js';
import { gatewayPolicy } from '../../gateway/govern/policy-versions.js';
import type { DemoSettings } from './demo-command.js';
import { startDemoApi, type DemoApi } from './demo-api.js';
import { feedGatewayHistory } from './gateway-history.js';
import { TENANTS } from './demo-data.js';
import { LLM_PROJECT } from './llm-calls.js';
import { startLlmTraffic, type LlmTraffic } from './llm-traffic.js';
import { startTraffic, type Traffic } from './traffic.js';
import { startWebhookReceiver, type ReceivedNotification } from './webhook-receiver.js';

/** examples/demo/vigil.yaml, from dist/app/demo/. */
export const DEMO_CONFIG = fileURLToPath(new URL('../../../examples/demo/vigil.yaml', import.meta.url));
const BURST = 60;
/**
 * Requests a second at the busiest hour of the history: the day before the demo is stored in full (about 60,000
 * requests at 1 a second), so it stays below this whatever `--rate` the live traffic has.
 */
const HISTORY_PEAK_RATE = 1;
/** LLM calls a second after the history, for `--rate` requests a second through the gateway. */
const llmRate = (rate: number): number => rate / 4;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** Notifications the demo prints as they arrive; the rest are on the Alerts page. */
const NOTIFICATIONS_PRINTED = 3;

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
  /** The address of the demo's own webhook receiver, which the config's channel posts to. */
  receiver: string;
  /** Whether the config turns alerts and channels on. */
  alerting: boolean;
  /** Ports the demo took instead of the usual ones, which something else holds (`npm start`, often). */
  moved: string[];
}

function banner(o: BannerFacts): string {
  const acme = TENANTS[0];
  const traffic = !o.settings.traffic ? 'none (--no-traffic): the gateway waits for your requests'
    : `a first burst of ${BURST} requests from ${TENANTS.length} tenants, then up to ${o.settings.rate} a second by the hour of the day (--rate N), after a day of history`;
  const llm = !o.llm ? `none: ${shown(o.config, o.cwd)} has no LLM project keyed by VIGIL_DEMO_LLM_KEY_SHA256`
    : !o.settings.traffic ? `project ${LLM_PROJECT}, no traces (--no-traffic)`
      : `traces of two prompt templates (support-reply, summarise-ticket), three versions each, to the project ${LLM_PROJECT}`;
  const body = JSON.stringify({ amount: 1250, currency: 'EUR', card: { number: '4242 4242 4242 4242', cvc: '123' }, customer: { email: 'you@example.com' } });
  return [
    'Vigil demo: a small shop API, the gateway in front of it with the demo policy, and its clients.',
    '',
    o.dashboard,
    ...o.moved.map((m) => `(${m})`),
    '',
    `  Gateway   ${o.gateway}  ->  the demo API at ${o.api.url}`,
    `  Policy    ${shown(o.config, o.cwd)}`,
    `  Data      ${o.dataDir}${o.temporary ? ' (removed on exit; --data-dir DIR keeps it)' : ''}`,
    `  Traffic   ${traffic}`,
    `  LLM       ${llm}`,
    `  Alerts    ${o.alerting ? `the rules of ${shown(o.config, o.cwd)}, notifying the demo's webhook receiver at ${o.receiver} (the Alerts page shows each delivery)` : `none: ${shown(o.config, o.cwd)} has no alerts and channels sections`}`,
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

/**
 * The dashboard line of the banner: the runtime's (a new token's link, first), or, with the token from VIGIL_TOKEN,
 * a line that names that variable: the demo's config takes the token from it, and "control_plane.token" would send
 * a demo user to a file they never wrote.
 */
function dashboardLine(announced: string | undefined, url: string, env: NodeJS.ProcessEnv): string {
  if (announced?.includes('?token=')) return announced.trim();
  if (env.VIGIL_TOKEN) return `Dashboard: ${url}/ (sign in with the token in VIGIL_TOKEN)`;
  return (announced ?? `Dashboard: ${url}/`).trim();
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
  // The webhook channel's receiver, in this process: the secret signs each notification and never leaves it.
  const webhookSecret = randomBytes(24).toString('base64url');
  let printed = 0;
  const onNotification = (n: ReceivedNotification): void => {
    printed += 1;
    if (printed <= NOTIFICATIONS_PRINTED) {
      io.out(`Notification delivered to the demo's webhook receiver: ${n.title}${printed === NOTIFICATIONS_PRINTED ? ' (further ones: the Alerts page)' : ''}\n`);
    }
  };
  const receiver = await startWebhookReceiver(webhookSecret, (n) => onNotification(n));
  const closeUpstreams = () => Promise.all([api.close(), receiver.close()]);
  const env: NodeJS.ProcessEnv = {
    ...io.env,
    VIGIL_DEMO_UPSTREAM: api.url,
    VIGIL_DEMO_LISTEN: `127.0.0.1:${cpPort}`,
    VIGIL_DEMO_PROXY: `127.0.0.1:${proxyPort}`,
    VIGIL_DEMO_DATA_DIR: dataDir,
    VIGIL_DEMO_LLM_KEY_SHA256: keySha256,
    VIGIL_DEMO_WEBHOOK_URL: receiver.url,
    VIGIL_DEMO_WEBHOOK_SECRET: webhookSecret,
  };

  let runtime: Runtime;
  let announced: string | undefined;
  let gateway: string;
  let llm = false;
  let alerting = false;
  let rules: RuleConfig[] | undefined;
  try {
    const data = loadConfigFile(config, env).data;
    rules = (data as { rules?: RuleConfig[] }).rules;
    const service = (data as { service?: { listen?: unknown } }).service;
    llm = hasLlmProject(data, keySha256);
    alerting = Boolean((data as { alerts?: unknown; channels?: unknown } | null)?.alerts && (data as { channels?: unknown }).channels);
    if (!service) {
      io.err(`vigil demo: ${shown(config, io.cwd)} has no "service" section: the demo needs the gateway (service.upstream: \${VIGIL_DEMO_UPSTREAM})\n`);
      await closeUpstreams();
      removeData();
      return 2;
    }
    gateway = gatewayUrl(service.listen);
    const { Runtime } = await import('../../runtime/runtime.js');
    runtime = await Runtime.start(config, { composition, env, announce: (line) => { announced = line; } });
  } catch (err) {
    await closeUpstreams();
    removeData();
    const code = reportStartupError(err, io);
    if (settings.port !== undefined || settings.proxyPort !== undefined) {
      io.err('vigil demo: when a port is taken, choose another with --port or --proxy-port, or leave them out: the demo then finds free ones\n');
    }
    return code;
  }

  const moved = [
    ...(settings.port === undefined && cpPort !== 9095 ? [`port 9095 is taken (by \`npm start\`?): the dashboard is on ${cpPort}; --port N chooses`] : []),
    ...(settings.proxyPort === undefined && proxyPort !== 8080 ? [`port 8080 is taken: the gateway is on ${proxyPort}; --proxy-port N chooses`] : []),
  ];
  io.out(banner({
    dashboard: dashboardLine(announced, runtime.url, io.env), gateway, api, config, dataDir, temporary, settings, cwd: io.cwd, llm, controlPlane: runtime.url, moved, receiver: receiver.url, alerting,
  }));

  let traffic: Traffic | undefined;
  let stopping = false;
  let history: Promise<unknown> = Promise.resolve();
  if (settings.traffic && rules) {
    const policy = gatewayPolicy(rules, (p) => resolve(dirname(config), p)).compiled;
    const startedAt = Date.now();
    // Capture tells each stored batch on `ui.event` (while someone listens): the count paces the history.
    let stored = 0;
    const unsubscribe = runtime.bus.subscribe('demo', 'ui.event', (events) => {
      for (const e of events as { topic: string; data: { stored?: number } }[]) if (e.topic === 'gateway.record') stored += e.data.stored ?? 0;
    });
    history = feedGatewayHistory({
      policy, peakRate: Math.min(settings.rate, HISTORY_PEAK_RATE), now: startedAt, stopped: () => stopping, stored: () => stored,
      publish: (exchange) => runtime.bus.publish('gateway.exchange', exchange),
    }).finally(unsubscribe).then((n) => {
      if (!stopping && n > 0) io.out(`History: ${n.toLocaleString('en')} requests of the last 24 hours captured in ${((Date.now() - startedAt) / 1000).toFixed(1)} s. The charts show a day.\n`);
    }, (err: unknown) => runtime.log.warn('demo: the gateway history failed', { error: err }));
  }
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
      onHistory: ({ traces }) => io.out(`LLM history: ${traces.toLocaleString('en')} calls of the last 24 hours, two prompt templates in three versions, accepted. The LLM stats show a day.\n`),
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
  stopping = true;
  await Promise.all([traffic?.stop(), llmTraffic?.stop(), history]);
  const { busyPools } = await runtime.stop();
  await closeUpstreams();
  removeData();
  if (busyPools.length) return exitBySignal(reason);
  const stats = traffic?.stats();
  io.out(`Stopped${stats ? ` after ${stats.sent.toLocaleString('en')} requests` : ''}.\n`);
  // Exit explicitly, as `vigil run` does: a stray handle must not keep a stopped demo alive.
  process.exit(0);
}

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from '@vigil/plugin-sdk';
import { parseByteSize, parseDuration, validateSection } from './config/index.js';
import { createLogger } from './log/logger.js';
import { MessageBus } from './bus/message-bus.js';
import { MetricsRegistry, registerProcessMetrics } from './metrics/index.js';
import { createControlPlane, loadOrCreateDashboardToken, type ControlPlane } from './http/index.js';
import type { StoreBackend } from './store/index.js';
import type { Scheduler, JobQueues } from './jobs/index.js';
import { WorkerPoolRegistry } from './workers/pools.js';
import { createDeliveryQueue } from './delivery/index.js';
import { PluginHost } from './plugins/host.js';
import { SandboxHost } from './sandboxes.js';
import type { CoreServices } from './plugins/context.js';
import { planRuntime, type PlanOptions, type RuntimePlan } from './plan.js';
import { planReload } from './reload-plan.js';
import { VERSION } from './version.js';
import { installMethod } from './install-method.js';
import { storageInfo } from './storage-info.js';
import { resolveOidc } from './auth/oidc-config.js';

export interface StartOptions extends PlanOptions {
  /** Where log lines go (default stderr). */
  logWrite?: (line: string) => void;
  /** Where the one-time dashboard URL is printed (default stdout). */
  announce?: (line: string) => void;
}

type Health = 'starting' | 'ok' | 'stopping';
/** How a config reload ended (`Runtime.reload`). */
export type ReloadOutcome = 'applied' | 'unchanged' | 'restart_required' | 'failed';

/** A running Vigil: core services plus the plugin host. Created by `Runtime.start`. */
export class Runtime {
  private health: Health = 'starting';
  private stopping: Promise<{ busyPools: string[] }> | undefined;
  private store: StoreBackend | undefined;
  private scheduler: Scheduler | undefined;
  private queues: JobQueues | undefined;
  private host: PluginHost | undefined;
  private controlPlane: ControlPlane | undefined;
  private disposeProcessMetrics: (() => void) | undefined;
  /** The store's URL once opened (what the About page describes, without credentials). */
  private storageUrl: string | undefined;
  private readonly startedAt = Date.now();
  readonly metrics = new MetricsRegistry();
  readonly log: Logger;
  readonly bus: MessageBus;
  readonly workers: WorkerPoolRegistry;
  private readonly sandboxes: SandboxHost;
  private readonly pluginErrors;
  private readonly reloads;
  private readonly shutdownMs: number;

  private constructor(private plan: RuntimePlan, private readonly options: StartOptions) {
    const core = plan.core;
    this.log = createLogger({ level: core.log.level, format: core.log.format, write: options.logWrite });
    this.shutdownMs = parseDuration(core.shutdown_timeout);
    this.reloads = this.metrics.core.counter('vigil_config_reloads_total', {
      help: 'Config reloads (SIGHUP), by outcome: applied, unchanged, restart_required, or failed (invalid file or a plugin refused).',
      labelNames: ['outcome'],
    });
    this.pluginErrors = this.metrics.core.counter('vigil_plugin_errors_total', {
      help: 'Errors raised inside plugin callbacks and contained by the runtime.', labelNames: ['plugin'],
    });
    this.bus = new MessageBus(this.metrics.core, (plugin, err) => this.reportError(plugin, err, 'bus handler'));
    this.workers = new WorkerPoolRegistry(this.metrics.core, this.log);
    this.sandboxes = new SandboxHost(options.composition, this.metrics.core, this.log.child({ component: 'sandbox' }));
  }

  /** Loads, validates and starts. Throws ConfigError (exit 2) or PluginError / VigilError (exit 1). */
  static async start(configFile: string, options: StartOptions): Promise<Runtime> {
    const plan = await planRuntime(configFile, options);
    const runtime = new Runtime(plan, options);
    try {
      await runtime.boot();
    } catch (err) {
      await runtime.stop();
      throw err;
    }
    return runtime;
  }

  get url(): string {
    return this.controlPlane?.url ?? '';
  }

  get plugins(): string[] {
    return this.host?.names ?? [];
  }

  private reportError(plugin: string, err: unknown, what: string): void {
    this.pluginErrors.labels(plugin).inc();
    this.log.error(`${what} failed`, { plugin, error: err });
  }

  private async boot(): Promise<void> {
    const { core, entries, dir } = this.plan;
    const dataDir = resolve(core.data_dir);
    mkdirSync(dataDir, { recursive: true });
    this.disposeProcessMetrics = registerProcessMetrics(this.metrics);

    const needs = new Set(entries.flatMap((e) => e.def.needs ?? []));
    // Single sign-on keeps its users, sign-ins and audit log in the store, so it opens one too.
    if (needs.has('store') || needs.has('jobs') || core.control_plane.oidc) {
      // Drivers (sqlite3, pg) load only when a plugin needs the store.
      const [{ openStore, storeForThreads, ThreadWriteLock, configuredStoreUrl }, { createScheduler, createJobQueues }] = await Promise.all([import('./store/index.js'), import('./jobs/index.js')]);
      const url = configuredStoreUrl(core);
      // Worker threads that write this database take turns with this thread's connection (thread-write-lock.ts).
      const sqliteWriteLock = new ThreadWriteLock();
      // Worker threads' own connections report their operations to this store's metrics on a channel of its own.
      const metricsChannel = `vigil-store-metrics:${randomUUID()}`;
      this.storageUrl = url;
      this.store = await openStore(url, { log: this.log.child({ component: 'store' }), metrics: this.metrics.core, sqliteWriteLock, threadMetricsChannel: metricsChannel });
      this.workers.useStore(storeForThreads(url, { writeLock: sqliteWriteLock.buffer, metricsChannel }));
      const owner = `${process.pid}@${Date.now().toString(36)}`;
      const jobsLog = this.log.child({ component: 'jobs' });
      const contain = (err: unknown, where: { job: string | number; queue?: string; plugin?: string }) =>
        this.reportError(where.plugin ?? 'core', err, where.queue ? `job ${where.queue}#${where.job}` : `job ${where.job}`);
      this.scheduler = createScheduler(this.store, { owner, log: jobsLog, contain });
      this.queues = createJobQueues(this.store, { owner, log: jobsLog, contain });
    }

    const token = await loadOrCreateDashboardToken({ configured: core.control_plane.token || undefined, dataDir });
    const cp = core.control_plane;
    this.controlPlane = await createControlPlane({
      listen: cp.listen,
      tls: cp.tls ? { certFile: resolve(dir, cp.tls.cert_file), keyFile: resolve(dir, cp.tls.key_file) } : undefined,
      tokenHash: token.hash,
      sessionStore: this.store,
      oidc: cp.oidc ? resolveOidc(cp.oidc) : undefined,
      sessionPolicy: { lifetimeMs: parseDuration(cp.session.lifetime), idleMs: parseDuration(cp.session.idle_timeout) },
      bodyLimit: parseByteSize(cp.body_limit),
      lockout: { maxFailures: cp.lockout.max_failures, windowMs: parseDuration(cp.lockout.window) },
      allowedHosts: cp.allowed_hosts,
      metricsAuth: cp.metrics_auth,
      registry: this.metrics,
      log: this.log.child({ component: 'control-plane' }),
      info: { title: 'Vigil control plane', version: VERSION },
      onPluginError: (plugin, err) => this.reportError(plugin, err, 'route handler'),
      health: () => ({ status: this.health, version: VERSION, plugins: this.plugins }),
    });

    const services: CoreServices = {
      log: this.log,
      dataDir,
      runtime: {
        version: VERSION,
        configFile: this.plan.file,
        configDir: dir,
        controlPlaneUrl: () => this.url,
        dataDir,
        startedAt: this.startedAt,
        installMethod: installMethod(),
        storage: () => storageInfo(this.storageUrl),
        plugins: () => this.plan.entries.map((e) => ({ name: e.def.name, version: e.def.version })),
      },
      metrics: (plugin) => this.metrics.forPlugin(plugin),
      bus: this.bus,
      http: (plugin) => this.controlPlane!.forPlugin(plugin),
      store: this.store ? (plugin) => this.store!.forPlugin(plugin) : undefined,
      // Interval ids and queue names are scoped to the plugin, so two plugins' "retention" jobs never collide.
      jobs: this.scheduler ? (plugin) => ({
        every: (id, ms, fn, o) => this.scheduler!.every(`${plugin}.${id}`, ms, fn, { ...o, plugin }),
        queue: (name, handler, o) => this.queues!.queue(`${plugin}.${name}`, handler, { ...o, plugin }),
      }) : undefined,
      workers: (plugin) => this.workers.forPlugin(plugin),
      sandboxes: () => this.sandboxes.forPlugin(),
      deliveryQueue: (plugin, options) =>
        createDeliveryQueue(options, { metrics: this.metrics.forPlugin(plugin), log: this.log.child({ plugin }) }),
      validate: (schema, value, where) => validateSection(this.plan.loaded, where.split('.'), schema, value),
      reportError: (plugin, err, what) => this.reportError(plugin, err, what),
      // The plugin's entry is replaced when it takes a reload, so its places follow the file it runs from.
      configLocation: (plugin, keyPath) => {
        const file = this.plan.file;
        const at = file ? this.plan.entries.find((e) => e.def.name === plugin)?.locate?.(keyPath) : undefined;
        return file && at ? { file, line: at.line, column: at.column } : undefined;
      },
    };
    this.host = new PluginHost(entries, services, this.log);
    await this.host.setup();
    await this.controlPlane.listen();
    await this.host.start();
    await this.scheduler?.start();
    await this.queues?.start();
    this.health = 'ok';
    this.log.info('vigil started', { url: this.url, plugins: this.plugins });
    const announce = this.options.announce ?? ((l) => process.stdout.write(l + '\n'));
    // The token itself can be printed only the once it is made; later starts still say where the dashboard is.
    // Last and set apart by blank lines: the one line a newcomer looks for.
    announce(`\n${token.generated
      ? `Dashboard: ${this.url}/?token=${token.generated}\n(This token is shown once; only its hash is kept in ${dataDir}. Set control_plane.token to choose your own.)`
      : `Dashboard: ${this.url}/ (sign in with the dashboard token: ${core.control_plane.token
        ? 'the one control_plane.token sets'
        : `the one printed when ${dataDir} was first used; lost it? stop Vigil and run: npx vigil token reset -config ${this.plan.file ?? 'FILE'}`})`}\n`);
  }

  /**
   * Reads the config file again and hands each plugin whose section changed its new section, in start order. Nothing
   * changes when the file is invalid or when anything changed that only a restart applies (core keys, plugins
   * enabled or disabled, a plugin without `reload`); the log says which. A plugin that refuses keeps its old section.
   * Never throws: the outcome is logged and counted in `vigil_config_reloads_total`.
   */
  async reload(): Promise<ReloadOutcome> {
    const outcome = await this.tryReload();
    this.reloads.labels(outcome).inc();
    return outcome;
  }

  private async tryReload(): Promise<ReloadOutcome> {
    const file = this.plan.file;
    if (!file || !this.host || this.health !== 'ok') {
      this.log.warn(`config reload skipped: ${file ? `the runtime is ${this.health}` : 'the runtime has no config file'}`);
      return 'failed';
    }
    let next: RuntimePlan;
    try {
      next = await planRuntime(file, this.options);
    } catch (err) {
      this.log.error('config reload failed: the file is invalid; nothing changed', { file, error: err });
      return 'failed';
    }
    const host = this.host;
    const { reload, restart } = planReload(this.plan, next, (name) => host.canReload(name));
    if (restart.length) {
      this.log.warn('config reload: these changes apply only on a restart; nothing changed', { file, restart });
      return 'restart_required';
    }
    // Sections that did not change hold the same values, now written where the new file has them.
    const placed = new Map(next.entries.map((e) => [e.def.name, e.locate]));
    const changed = new Set(reload.map((e) => e.def.name));
    this.plan = { ...this.plan, entries: this.plan.entries.map((e) => (changed.has(e.def.name) ? e : { ...e, locate: placed.get(e.def.name) ?? e.locate })) };
    if (!reload.length) {
      this.log.info('config reload: nothing changed', { file });
      return 'unchanged';
    }
    const applied: string[] = [];
    for (const entry of reload) {
      try {
        await host.reload(entry.def.name, entry.config);
        this.plan = { ...this.plan, entries: this.plan.entries.map((e) => (e.def.name === entry.def.name ? entry : e)) };
        applied.push(entry.def.name);
      } catch (err) {
        this.log.error('config reload: a plugin kept its running config', { file, plugin: entry.def.name, error: err });
      }
    }
    if (!applied.length) return 'failed';
    this.plan = { ...this.plan, loaded: next.loaded };
    this.log.info('config reloaded', { file, plugins: applied });
    return applied.length === reload.length ? 'applied' : 'failed';
  }

  /**
   * Stops upstream-first within `shutdown_timeout`; safe to call twice and after a failed start. Resolves with the
   * worker pools whose tasks were still running at the deadline: their threads are left as they are, and the process
   * must then end by a signal (`exitBySignal`), because ending them mid-call would abort it.
   */
  stop(): Promise<{ busyPools: string[] }> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<{ busyPools: string[] }> {
    this.health = 'stopping';
    const deadline = Date.now() + this.shutdownMs;
    const left = () => Math.max(100, deadline - Date.now());
    // No new scheduled or queued work, then plugins upstream-first so each stage drains into the next.
    await this.scheduler?.stop(left());
    await this.queues?.stop(left());
    await this.host?.stop(left());
    await this.bus.drain(Math.min(left(), 2000));
    const busyPools = await this.workers.destroyAll(left());
    if (busyPools.length) this.log.error('worker pools still running tasks at the shutdown timeout', { pools: busyPools });
    await this.sandboxes.close();
    await this.controlPlane?.close();
    await this.store?.close();
    this.disposeProcessMetrics?.();
    return { busyPools };
  }
}


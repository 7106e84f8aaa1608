import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type {
  ConfigLocation, DeliveryQueue, DeliveryQueueOptions, HttpRoutes, Jobs, JsonSchema, Logger, Metrics, PluginContext,
  PluginDefinition, PoolOptions, RuntimeInfo, Sandboxes, ServiceRegistry, Services, Store, WorkerPools,
} from '@vigil/plugin-sdk';
import type { MessageBus } from '../bus/message-bus.js';
import { PluginError, PluginErrors } from './errors.js';

/** What the runtime hands the plugin host to build each plugin's context. Optional parts exist only when needed. */
export interface CoreServices {
  log: Logger;
  dataDir: string;
  runtime: RuntimeInfo;
  metrics(plugin: string): Metrics;
  bus: MessageBus;
  http(plugin: string): HttpRoutes;
  store?(plugin: string): Store;
  jobs?(plugin: string): Jobs;
  workers?(plugin: string): WorkerPools;
  sandboxes?(plugin: string): Sandboxes;
  deliveryQueue<T>(plugin: string, options: DeliveryQueueOptions<T>): DeliveryQueue<T>;
  validate(schema: JsonSchema, value: unknown, where: string): void;
  /** Logs and counts an error raised inside a plugin's callback; never rethrows. */
  reportError(plugin: string, err: unknown, what: string): void;
  /** Where a key path of `plugin`'s section is written in the config file it was last given (ctx.configLocation). */
  configLocation?(plugin: string, keyPath: readonly (string | number)[]): ConfigLocation | undefined;
}

/** Services registered by plugins, shared by all contexts. */
export class ServiceDirectory {
  private readonly entries = new Map<string, { plugin: string; service: unknown }>();

  provide(plugin: string, declared: readonly string[], name: string, service: unknown): void {
    if (!declared.includes(name)) {
      throw new PluginError(PluginErrors.UNDECLARED_SERVICE, plugin, `plugin ${plugin} provides service "${name}" without listing it in provides`);
    }
    const existing = this.entries.get(name);
    if (existing) {
      throw new PluginError(PluginErrors.SERVICE_TAKEN, plugin, `service "${name}" is already provided by plugin ${existing.plugin}`);
    }
    this.entries.set(name, { plugin, service });
  }

  find(name: string): unknown {
    return this.entries.get(name)?.service;
  }
}

/** Builds the context one plugin receives. Core services it did not declare in `needs` throw when touched. */
export function createPluginContext(def: PluginDefinition, core: CoreServices, directory: ServiceDirectory): PluginContext {
  const name = def.name;
  const needs = new Set(def.needs ?? []);
  const optional = new Set(def.optional ?? []);
  const log = core.log.child({ plugin: name });

  const requireCore = <T>(service: string, get: ((p: string) => T) | undefined): T => {
    if (!needs.has(service)) {
      throw new PluginError(PluginErrors.UNDECLARED_SERVICE, name, `plugin ${name} uses ctx.${service} without listing "${service}" in needs`);
    }
    if (!get) throw new PluginError(PluginErrors.SERVICE_MISSING, name, `core service "${service}" is not available in this runtime`);
    return get(name);
  };
  const memo = <T>(fn: () => T): (() => T) => {
    let value: T | undefined;
    let done = false;
    return () => { if (!done) { value = fn(); done = true; } return value as T; };
  };
  const store = memo(() => requireCore('store', core.store));
  const http = memo(() => requireCore('http', core.http));
  const jobs = memo(() => requireCore('jobs', core.jobs));
  const workers = memo((): WorkerPools => {
    const pools = requireCore('workers', core.workers);
    if (needs.has('store')) return pools;
    // A pool's threads may open the store only for a plugin that declared it, like ctx.store itself.
    return {
      ...pools,
      pool: <I, O>(options: PoolOptions) => {
        if (options.store) {
          throw new PluginError(PluginErrors.UNDECLARED_SERVICE, name, `plugin ${name} asks for a worker pool with store: true without listing "store" in needs`);
        }
        return pools.pool<I, O>(options);
      },
    };
  });
  const sandboxes = memo(() => requireCore('sandbox', core.sandboxes));
  const metrics = memo(() => core.metrics(name));
  const dataDir = memo(() => {
    const dir = join(core.dataDir, 'plugins', name);
    mkdirSync(dir, { recursive: true });
    return dir;
  });

  const services: ServiceRegistry = {
    provide: (service, impl) => directory.provide(name, def.provides ?? [], service, impl),
    get: <K extends keyof Services & string>(service: K) => {
      if (!needs.has(service) && !optional.has(service)) {
        throw new PluginError(PluginErrors.UNDECLARED_SERVICE, name, `plugin ${name} looks up service "${service}" without listing it in needs`);
      }
      const found = directory.find(service);
      if (found === undefined) {
        throw new PluginError(PluginErrors.SERVICE_MISSING, name, `plugin ${name} needs service "${service}", but no plugin provided it`);
      }
      return found as Services[K];
    },
    find: <K extends keyof Services & string>(service: K) => directory.find(service) as Services[K] | undefined,
  };

  return {
    name,
    log,
    get dataDir() { return dataDir(); },
    runtime: core.runtime,
    get metrics() { return metrics(); },
    bus: core.bus.forPlugin(name),
    services,
    get store() { return store(); },
    get http() { return http(); },
    get jobs() { return jobs(); },
    get workers() { return workers(); },
    get sandboxes() { return sandboxes(); },
    contain: (what, fn) => (...args) => {
      try {
        const r = fn(...args);
        if (r && typeof (r as Promise<unknown>).then === 'function') {
          (r as Promise<unknown>).catch((err) => core.reportError(name, err, what));
        }
      } catch (err) {
        core.reportError(name, err, what);
      }
    },
    deliveryQueue: (options) => core.deliveryQueue(name, options),
    resolvePath: (p) => resolve(core.runtime.configDir, p),
    validate: (schema, value, where) => core.validate(schema, value, where),
    configLocation: (keyPath) => core.configLocation?.(name, keyPath),
  };
}

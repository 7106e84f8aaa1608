import type { JsonSchema } from './json-schema.js';
import type { Topics, Services } from './registry.js';
import type { Store } from './store.js';
import type { Jobs } from './jobs.js';
import type { WorkerPools } from './workers.js';
import type { HttpRoutes } from './http.js';
import type { Metrics } from './metrics.js';
import type { DeliveryQueue, DeliveryQueueOptions } from './delivery.js';
import type { Sandboxes } from './sandboxes.js';

export type LogFields = Record<string, unknown>;

/** JSON lines on stderr (pretty on a TTY). Every line carries the plugin's name. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** A subscriber's handler gets batches; the next batch waits until the returned promise settles. */
export type TopicHandler<T> = (batch: T[]) => void | Promise<void>;

export interface SubscribeOptions<T = unknown> {
  /** Bound of this subscriber's queue, in messages. When full, new messages are dropped and counted. Default 10,000. */
  queue?: number;
  /** Largest batch handed to the handler. Default 256. */
  batch?: number;
  /**
   * Called (synchronously, on the publisher's stack) with each message this subscriber's queue drops, full or closed:
   * for a subscriber that owns something the message carries (bytes of a budget, say) and must let go of it.
   */
  onDrop?(message: T): void;
}

/**
 * In-process typed topics. `publish` never blocks and never awaits a subscriber: it appends to each subscriber's
 * bounded queue, or drops and counts (`vigil_bus_dropped_total{topic,subscriber}`).
 * Topic payload types come from the `Topics` interface, which plugins extend by declaration merging.
 */
export interface Bus {
  /** Returns how many subscriber queues accepted the message. */
  publish<K extends keyof Topics & string>(topic: K, message: Topics[K]): number;
  /**
   * `subscriber` names the queue in metrics; it defaults to the plugin's name. Returns an unsubscribe function: it
   * stops new deliveries at once and resolves when the messages already queued have been handled (drain on stop).
   */
  subscribe<K extends keyof Topics & string>(
    topic: K,
    handler: TopicHandler<Topics[K]>,
    options?: SubscribeOptions<Topics[K]> & { subscriber?: string },
  ): () => Promise<void>;
  /** Cheap check for publishers that want to skip building a message nobody would receive. */
  hasSubscribers(topic: keyof Topics & string): boolean;
}

/** Service registry: plugins talk to each other through it instead of importing each other. */
export interface ServiceRegistry {
  provide<K extends keyof Services & string>(name: K, service: Services[K]): void;
  /** Throws `VIGIL_ERR_PLUGIN_SERVICE_MISSING` when the service is absent; it must be listed in `needs`. */
  get<K extends keyof Services & string>(name: K): Services[K];
  /** For services listed in `optional`. */
  find<K extends keyof Services & string>(name: K): Services[K] | undefined;
}

export interface RuntimeInfo {
  version: string;
  /** Absolute path of the config file, or undefined for a runtime started from code. */
  configFile?: string;
  /** Directory of the config file; relative paths in plugin config resolve against it. */
  configDir: string;
  /** Base URL of the control plane once it listens, e.g. `http://127.0.0.1:9095`. */
  controlPlaneUrl(): string;
  /** Absolute path of the runtime's `data_dir`; each plugin's own directory (`ctx.dataDir`) lies below it. */
  dataDir: string;
  /** Epoch ms at which this runtime started starting: uptime is measured from it. */
  startedAt: number;
  /** How this copy of Vigil was installed, as the About page tells it. */
  installMethod: InstallMethod;
  /** The store's backend and where it lives; `none` when no enabled plugin needs a store. Never holds credentials. */
  storage(): StorageInfo;
  /** The enabled plugins in start order, with their versions (all of them once setup is over). */
  plugins(): { name: string; version: string }[];
}

/**
 * `git checkout` (a clone of the repository), `npm package` (a project's dependency), `global npm package`
 * (`npm install -g`), `npx` (npm's cache), or `source tree` (unpacked sources without git).
 */
export type InstallMethod = 'git checkout' | 'npm package' | 'global npm package' | 'npx' | 'source tree';

export interface StorageInfo {
  backend: 'sqlite' | 'postgres' | 'none';
  /** The SQLite file (`:memory:` for a database in memory), or PostgreSQL's `host:port/database`. */
  location?: string;
}

/** A place in the config file. */
export interface ConfigLocation {
  /** Absolute path of the file. */
  file: string;
  line: number;
  column: number;
}

export interface PluginContext {
  readonly name: string;
  readonly log: Logger;
  /** Created on first access: `<data_dir>/plugins/<name>`. */
  readonly dataDir: string;
  readonly runtime: RuntimeInfo;
  readonly metrics: Metrics;
  readonly bus: Bus;
  readonly services: ServiceRegistry;
  /** Requires `needs: ['store']`. */
  readonly store: Store;
  /** Requires `needs: ['http']`. Routes are mounted on the control plane. */
  readonly http: HttpRoutes;
  /** Requires `needs: ['jobs']`. */
  readonly jobs: Jobs;
  /** Requires `needs: ['workers']`. */
  readonly workers: WorkerPools;
  /** Requires `needs: ['sandbox']`. User code (custom evals, functions) runs here, never in the runtime's process. */
  readonly sandboxes: Sandboxes;
  /**
   * Wraps a callback so a throw or rejection inside it is logged with this plugin's name and counted in
   * `vigil_plugin_errors_total{plugin}` instead of reaching the process. Use it for timers and emitters the
   * runtime does not call itself; bus handlers, routes and jobs are already contained.
   */
  contain<A extends unknown[]>(what: string, fn: (...args: A) => unknown): (...args: A) => void;
  /** A queued-retry delivery queue whose metrics are registered for this plugin. Shut it down in `stop`. */
  deliveryQueue<T>(options: DeliveryQueueOptions<T>): DeliveryQueue<T>;
  /** Resolve a path from this plugin's config against the config file's directory. */
  resolvePath(path: string): string;
  /**
   * Where a key path of this plugin's own config (`[2, 'name']` for the name of the third item of a list section)
   * is written in the config file, as last loaded for this plugin: at start, or by the reload it took. Lines and
   * columns are 1-based. Undefined for a runtime without a config file, or a key that is not in the file (a default).
   */
  configLocation(keyPath: readonly (string | number)[]): ConfigLocation | undefined;
  /** Validate a value against a schema with the config validator's rules and messages. Throws a VigilError. */
  validate(schema: JsonSchema, value: unknown, where: string): void;
}

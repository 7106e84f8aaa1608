import { resolve } from 'node:path';
import type { Logger, Metrics } from '@vigil/plugin-sdk';
import { Backend } from './backend.js';
import { StoreError, StoreErrors } from './errors.js';
import { PostgresDriver, redactUrl } from './postgres-driver.js';
import { SqliteDriver } from './sqlite-driver.js';
import { ReportingTimer, StoreInstruments } from './store-metrics.js';
import type { ThreadWriteLock } from './thread-write-lock.js';
import type { StoreBackend } from './types.js';
import type { SharedStore, ThreadStore } from '@vigil/plugin-sdk/worker';

export type { ThreadStore };

export type StoreLocation = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string };

const accepted = 'use sqlite:/path/to/vigil.db, sqlite::memory: or postgres://user@host:5432/db';

/** Reads a storage URL. A relative SQLite path resolves against the working directory. */
export function parseStoreUrl(url: string): StoreLocation {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new StoreError(StoreErrors.URL, `store: storage.url is empty; ${accepted}`);
  }
  if (url.startsWith('sqlite:')) {
    let path = url.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === ':memory:') return { kind: 'sqlite', filename: ':memory:' };
    if (path === '') throw new StoreError(StoreErrors.URL, `store: storage URL "${url}" has no file path; ${accepted}`);
    return { kind: 'sqlite', filename: resolve(path) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1];
  throw new StoreError(StoreErrors.URL, scheme
    ? `store: unknown storage URL scheme "${scheme}:" in "${redactUrl(url)}"; ${accepted}`
    : `store: storage URL "${redactUrl(url)}" has no scheme; ${accepted}`);
}

/**
 * How worker threads reach the store at `url`, with what they share with this thread (write turns, the metrics
 * channel of `openStore`'s `threadMetricsChannel`). `sqlite::memory:` is one connection's own database: no other
 * thread can open it.
 */
export function storeForThreads(url: string, shared: Omit<SharedStore, 'url'> = {}): ThreadStore {
  const location = parseStoreUrl(url);
  if (location.kind === 'sqlite' && location.filename === ':memory:') {
    return { unavailable: 'sqlite::memory: exists in the main thread only; use a database file to write from worker threads' };
  }
  return { url, ...shared };
}

/** Opens the store named by `url` (SQLite file, SQLite in memory, or PostgreSQL) and checks that it answers. */
export async function openStore(url: string, options: {
  log?: Logger;
  /** Operations counted and timed in `vigil_store_*` (store-metrics.ts). */
  metrics?: Metrics;
  /** With `metrics`: worker threads' connections report their operations on this `BroadcastChannel` too. */
  threadMetricsChannel?: string;
  /** In a worker thread, without `metrics`: report each operation on this channel to the main thread's. */
  reportMetricsTo?: string;
  postgresConnections?: number;
  /** SQLite: turns for writing, shared with this process's other connections to the file (thread-write-lock.ts). */
  sqliteWriteLock?: ThreadWriteLock;
} = {}): Promise<StoreBackend> {
  const location = parseStoreUrl(url);
  const driver = location.kind === 'sqlite'
    ? await SqliteDriver.open(location.filename, options.sqliteWriteLock)
    : await PostgresDriver.open(location.url, options.log, options.postgresConnections);
  const timer = options.metrics
    ? new StoreInstruments(options.metrics, options.threadMetricsChannel)
    : options.reportMetricsTo !== undefined ? new ReportingTimer(options.reportMetricsTo) : undefined;
  return new Backend(driver, { log: options.log, timer });
}

// Test support for the store and jobs suites: every suite is written once against a backend kind and run for
// SQLite (a temp dir) and for PostgreSQL (a schema per database, skipped with a printed reason when unreachable
// outside CI).
import { join } from 'node:path';
import type { Dialect, LogFields, Logger } from '@vigil/plugin-sdk';
import { openStore } from '../../../../runtime/store/index.js';
import type { StoreBackend } from '../../../../runtime/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';
import { tempDir } from '../../../support/tmp.js';

export interface BackendKind {
  readonly name: Dialect;
  /** The URL of a new, empty database. Open it as often as needed: each handle is one "process". */
  fresh(): Promise<string>;
  /** Opens `url` and remembers the handle, so `cleanup()` closes what a failing test left open. */
  open(url: string): Promise<StoreBackend>;
  cleanup(): Promise<void>;
}

/** SQLite always; PostgreSQL when reachable (required in CI). `file` names the test file in schema names. */
export async function backendKinds(file: string): Promise<BackendKind[]> {
  const kinds: BackendKind[] = [sqliteKind()];
  if (await postgresAvailable(file)) kinds.push(postgresKind(file));
  return kinds;
}

function tracking(name: Dialect, fresh: () => Promise<string>, dispose: () => Promise<void>): BackendKind {
  const handles: StoreBackend[] = [];
  return {
    name,
    fresh,
    async open(url) {
      const store = await openStore(url);
      handles.push(store);
      return store;
    },
    async cleanup() {
      await Promise.all(handles.map((h) => h.close().catch(() => {})));
      await dispose();
    },
  };
}

function sqliteKind(): BackendKind {
  const dir = tempDir('vigil-store-');
  let n = 0;
  return tracking('sqlite', async () => `sqlite:${join(dir.path, `db-${++n}`, 'vigil.db')}`, async () => dir.cleanup());
}

function postgresKind(file: string): BackendKind {
  const schemas: { drop(): Promise<void> }[] = [];
  let n = 0;
  return tracking('postgres', async () => {
    const schema = await freshPostgresSchema(`${file}_${++n}`);
    schemas.push(schema);
    return schema.url;
  }, async () => { await Promise.all(schemas.map((s) => s.drop().catch(() => {}))); });
}

export interface LogEntry { level: string; msg: string; fields: LogFields }

/** A logger that keeps its entries for assertions and prints nothing. */
export function recordingLog(entries: LogEntry[] = []): Logger & { entries: LogEntry[] } {
  const make = (bound: LogFields): Logger => ({
    debug: (msg, fields) => { entries.push({ level: 'debug', msg, fields: { ...bound, ...fields } }); },
    info: (msg, fields) => { entries.push({ level: 'info', msg, fields: { ...bound, ...fields } }); },
    warn: (msg, fields) => { entries.push({ level: 'warn', msg, fields: { ...bound, ...fields } }); },
    error: (msg, fields) => { entries.push({ level: 'error', msg, fields: { ...bound, ...fields } }); },
    child: (fields) => make({ ...bound, ...fields }),
  });
  return Object.assign(make({}), { entries });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves to the error `fn` rejects with; fails when it resolves. */
export async function rejection(fn: () => Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await fn();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected a rejection, but the call resolved');
}

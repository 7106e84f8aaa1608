import type { Dialect, Logger, Migration, Row, SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrors } from './errors.js';
import type { TxConnection } from './types.js';

/** The lock every instance takes around a migration, so several instances starting at once apply it once. */
export const migrationLockKey = 'vigil_migrations';

const createTable = `CREATE TABLE IF NOT EXISTS vigil_migrations (
  plugin TEXT NOT NULL,
  version INTEGER NOT NULL,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL,
  PRIMARY KEY (plugin, version)
)`;

export interface MigrationTarget {
  readonly dialect: Dialect;
  readonly nowSql: string;
  query<R extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]>;
  lockedTransaction<T>(key: string, fn: (tx: TxConnection) => Promise<T>): Promise<T>;
}

/** Throws unless versions run 1, 2, 3, … and every migration has a name and SQL for this dialect. */
export function checkMigrations(plugin: string, migrations: readonly Migration[]): void {
  const fail = (what: string) => new StoreError(StoreErrors.MIGRATION_ORDER, `store: migrations of plugin "${plugin}": ${what}`);
  if (typeof plugin !== 'string' || plugin === '') throw new StoreError(StoreErrors.MIGRATION_ORDER, 'store: migrate() needs a plugin name');
  if (!Array.isArray(migrations)) throw fail('expected an array of { version, name, up }');
  migrations.forEach((m, i) => {
    const expected = i + 1;
    if (!m || typeof m !== 'object') throw fail(`entry ${i} is not a migration object`);
    if (!Number.isInteger(m.version)) throw fail(`entry ${i} has version ${JSON.stringify(m.version)}; versions are integers 1, 2, 3, …`);
    if (m.version !== expected) {
      const prev = i === 0 ? 'at the start' : `after version ${migrations[i - 1].version}`;
      const kind = i > 0 && m.version <= migrations[i - 1].version ? 'does not increase' : 'leaves a gap';
      throw fail(`version ${m.version} ("${m.name}") ${prev} ${kind}; versions must be 1, 2, 3, … in order without gaps`);
    }
    if (typeof m.name !== 'string' || m.name === '') throw fail(`version ${m.version} has no name`);
    const up = m.up as unknown;
    const ok = typeof up === 'string'
      || (!!up && typeof up === 'object' && typeof (up as { sqlite?: unknown }).sqlite === 'string' && typeof (up as { postgres?: unknown }).postgres === 'string');
    if (!ok) throw fail(`version ${m.version} ("${m.name}") needs up: a SQL string or { sqlite, postgres }`);
  });
}

function sqlFor(m: Migration, dialect: Dialect): string {
  return typeof m.up === 'string' ? m.up : m.up[dialect];
}

/**
 * Applies the pending migrations of `plugin`, each in its own transaction together with its record, under the
 * migration lock. Each transaction re-reads the record first: another instance may have applied it meanwhile.
 */
export async function applyMigrations(target: MigrationTarget, plugin: string, migrations: readonly Migration[], log?: Logger): Promise<number> {
  checkMigrations(plugin, migrations);
  await target.lockedTransaction(migrationLockKey, (tx) => tx.exec(createTable));
  const rows = await target.query<{ version: number }>('SELECT version FROM vigil_migrations WHERE plugin = ? ORDER BY version', [plugin]);
  const applied = new Set(rows.map((r) => Number(r.version)));
  const newest = rows.length ? Number(rows[rows.length - 1].version) : 0;
  if (newest > migrations.length) {
    log?.warn('store: the database has migrations this code does not know; it was used by a newer version', { plugin, database: newest, code: migrations.length });
  }
  let count = 0;
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    const ran = await target.lockedTransaction(migrationLockKey, async (tx) => {
      const done = await tx.query('SELECT 1 AS done FROM vigil_migrations WHERE plugin = ? AND version = ?', [plugin, m.version]);
      if (done.length) return false;
      try {
        await tx.exec(sqlFor(m, target.dialect));
      } catch (err) {
        throw new StoreError(StoreErrors.MIGRATION_FAILED,
          `store: migration ${m.version} ("${m.name}") of plugin "${plugin}" failed on ${target.dialect}: ${(err as Error).message}; none of it was applied`,
          { cause: err });
      }
      await tx.run(`INSERT INTO vigil_migrations (plugin, version, name, applied_at) VALUES (?, ?, ?, ${target.nowSql})`, [plugin, m.version, m.name]);
      return true;
    });
    if (ran) {
      count++;
      // Debug: a first start applies a dozen, and they buried the dashboard link a newcomer looks for.
      log?.debug('store: applied migration', { plugin, version: m.version, name: m.name });
    }
  }
  return count;
}

import type { Migration, Row, SqlValue, Store, Transaction } from '@vigil/plugin-sdk';
import { checkIdentifier } from './insert-statements.js';
import type { StoreBackend } from './types.js';

/** `<plugin>_<name>`, dashes as underscores: `table('llm-traces', 'spans')` is `llm_traces_spans`. */
export function pluginTableName(plugin: string, name: string): string {
  const table = `${plugin}_${name}`.replace(/-/g, '_');
  checkIdentifier(table, `table name for plugin "${plugin}"`);
  return table;
}

/** The store as one plugin sees it: shared connections, its own migration history and table prefix. */
export class PluginStore implements Store {
  readonly dialect;

  constructor(private readonly backend: StoreBackend, private readonly plugin: string) {
    this.dialect = backend.dialect;
  }

  query<R extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]> {
    return this.backend.query<R>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    return this.backend.run(sql, params);
  }

  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], options?: { onConflict?: string }): Promise<number> {
    return this.backend.insertMany(table, columns, rows, options);
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.backend.transaction(fn);
  }

  migrate(migrations: readonly Migration[]): Promise<void> {
    return this.backend.migrate(this.plugin, migrations);
  }

  table(name: string): string {
    return pluginTableName(this.plugin, name);
  }
}

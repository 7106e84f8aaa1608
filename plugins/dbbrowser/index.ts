import { definePlugin } from '@vigil/plugin-sdk';
import { dbBrowserConfigSchema, type DbBrowserConfig } from './config-schema.js';

/**
 * The database browser: saved connections to SQLite files and PostgreSQL, MariaDB and MySQL servers (passwords encrypted, never sent
 * back), schemas and tables with row counts, paged rows, and a statement editor with a timeout, a row cap and a CSV
 * export. Read-only by default, enforced by the databases; writes are a switch per connection, and each statement on
 * such a connection is audited.
 */
export default definePlugin<DbBrowserConfig>({
  name: 'dbbrowser',
  version: '0.1.0',
  configSchema: dbBrowserConfigSchema,
  needs: ['http', 'store', 'workers'],
  async setup(ctx, config) {
    const { startDbBrowser } = await import('./start-dbbrowser.js');
    return startDbBrowser(ctx, config);
  },
});

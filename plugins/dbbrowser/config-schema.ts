import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `dbbrowser:` section. `dbbrowser: {}` browses SQLite files under the home folder and any PostgreSQL, MariaDB or MySQL server. */
export interface DbBrowserConfig {
  /** Folders SQLite files may be opened from (a file is checked after its symlinks are resolved); default: the home folder. */
  roots?: string[];
  /** The statement timeout a query gets when it names none. */
  statement_timeout: string | number;
  /** The most a query may ask for. */
  max_statement_timeout: string | number;
  /** Rows a query returns when it names no cap; results past it say "cut at N rows". */
  row_cap: number;
  /** The most rows a query may ask for. */
  max_row_cap: number;
  /** The key connection passwords are encrypted with; default `<data_dir>/plugins/dbbrowser/secrets.key`. */
  key_file?: string;
}

export const dbBrowserConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'The database browser (Host > Database): SQLite files and PostgreSQL, MariaDB and MySQL servers, read-only unless a connection turns writes on.',
  properties: {
    roots: {
      type: 'array', maxItems: 32, items: { type: 'string', minLength: 1, maxLength: 4096 },
      description: 'Folders SQLite files may be opened from, relative to the config file; a path is checked after its symlinks are resolved. Default: the home folder of the user Vigil runs as.',
    },
    statement_timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '100ms', formatMaximum: '10m', default: '15s',
      description: 'How long a statement may run when the request names no timeout; the database cancels it then.',
    },
    max_statement_timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '100ms', formatMaximum: '1h', default: '2m',
      description: 'The longest timeout a request may ask for.',
    },
    row_cap: { type: 'integer', minimum: 1, maximum: 100000, default: 1000, description: 'Rows a query returns when the request names no cap; the answer says where it was cut.' },
    max_row_cap: { type: 'integer', minimum: 1, maximum: 100000, default: 10000, description: 'The most rows a query (and its CSV) may return.' },
    key_file: { type: 'string', minLength: 1, description: 'The key connection passwords are encrypted with (created with mode 0600); relative to the config file. Default <data_dir>/plugins/dbbrowser/secrets.key.' },
  },
};

import type { JsonSchema } from '@vigil/plugin-sdk';

export interface FilesConfig {
  roots: string[];
  scan_roots: string[];
  budget: string | number;
  max_budget: string | number;
  max_entries: number;
  max_scans: number;
  edit_limit: number;
}

const folders = (description: string, fallback: string[]): JsonSchema => ({
  type: 'array', items: { type: 'string', minLength: 1, maxLength: 4096 }, minItems: 1, maxItems: 32, default: fallback, description,
});

export const filesConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    roots: folders('Folders whose files the preview, the editor and the trash may touch (symbolic links resolved first); `~` is the home directory of the user Vigil runs as.', ['~']),
    scan_roots: folders('Folders the folder sizes, duplicates and old-files scans may start in, and where the filename search looks.', ['/']),
    budget: { type: ['string', 'integer'], default: '30s', description: 'A scan\'s time budget when the request names none (10s, 2m, or ms).' },
    max_budget: { type: ['string', 'integer'], default: '5m', description: 'The largest budget a request may ask for.' },
    max_entries: { type: 'integer', minimum: 1000, maximum: 50_000_000, default: 5_000_000, description: 'Entries one scan looks at, at most.' },
    max_scans: { type: 'integer', minimum: 1, maximum: 8, default: 2, description: 'Scans running at once (each in its own worker thread); one more is refused with 429.' },
    edit_limit: { type: 'integer', minimum: 1024, maximum: 16 * 1024 * 1024, default: 1024 * 1024, description: 'Largest text file the editor opens and saves, bytes.' },
  },
};

// Every answer of the files plugin, as JSON Schema (the API listing and the UI's types are generated from these).
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const bytes: JsonSchema = { type: 'number', minimum: 0, description: 'bytes' };
const text: JsonSchema = { type: 'string' };
const ms: JsonSchema = { type: 'number', description: 'epoch ms' };
const path: JsonSchema = { type: 'string', description: 'absolute path' };

const counts = closedObject({ files: count, dirs: count, bytes, errors: count, skipped: count }, {
  title: 'ScanCounts', description: 'Files and folders seen, their disk usage, entries that could not be read (never fatal) and entries not entered (symbolic links, other filesystems, past the depth limit).',
});

export const folderSchema = closedObject({
  path, bytes, files: { type: ['integer', 'null'], minimum: 0 },
  complete: { type: 'boolean', description: 'false while the scan runs: the figures grow as they are counted' },
  children: {
    type: 'array', maxItems: 500,
    items: closedObject({ name: text, path, bytes, files: { type: ['integer', 'null'], minimum: 0 }, dir: { type: 'boolean' } }, { title: 'FolderChild' }),
  },
  other: closedObject({ count, bytes }, { title: 'FolderOther', description: 'what is not listed one by one' }),
}, { title: 'FolderSizes', description: 'One folder of a sizes scan: its children largest first (at most 500).' });

const fileRow = closedObject({ path, bytes, mtime_ms: ms, atime_ms: ms }, { title: 'StorageFileRow' });
const hit = closedObject({ path, bytes, mtime_ms: ms, atime_ms: ms, dir: { type: 'boolean' } }, { title: 'SearchHit' });
const group = closedObject({
  bytes, wasted: bytes, proof: { enum: ['full-hash', 'fingerprint'] },
  paths: { type: 'array', items: path, maxItems: 100 },
}, { title: 'DuplicateGroup' });

export const scanSchema = closedObject({
  id: text,
  kind: { enum: ['sizes', 'duplicates', 'old-files', 'search'] },
  state: { enum: ['running', 'done', 'failed'] },
  stop: { enum: ['budget', 'cancelled', 'entries', 'results', 'deadline', null], description: 'why it ended early; null when it finished (or runs)' },
  note: { type: ['string', 'null'] },
  roots: { type: 'array', items: path },
  started_at: { type: 'string', format: 'date-time' },
  elapsed_ms: count,
  budget_ms: count,
  counts,
  current: text,
  folder: folderSchema,
  duplicates: closedObject({
    phase: { enum: ['walking', 'fingerprint', 'hashing', 'done'] },
    candidates: count, fingerprinted: count, hash_bytes_total: bytes, hash_bytes_done: bytes,
    groups: { type: 'array', items: group, maxItems: 1000 }, groups_total: count, wasted: bytes,
    unconfirmed: { ...count, description: 'files not proved or disproved when the scan stopped early' },
  }, { title: 'DuplicateScan' }),
  old_files: closedObject({
    clock: { enum: ['atime', 'mtime'] }, clock_note: text,
    rows: { type: 'array', items: fileRow, maxItems: 1000 }, matched: count, matched_bytes: bytes,
  }, { title: 'OldFilesScan' }),
  hits: { type: 'array', items: hit, maxItems: 5000 },
}, { title: 'StorageScan', optional: ['folder', 'duplicates', 'old_files', 'hits'], description: 'A scan: its progress while it runs, its answer once it ends.' });

export const scanListSchema = closedObject({ scans: { type: 'array', items: scanSchema, maxItems: 64 } }, { title: 'StorageScans' });

export const scanBody = closedObject({
  kind: { enum: ['sizes', 'duplicates', 'old-files', 'search'] },
  path: { type: 'string', maxLength: 4096, description: 'the folder to scan (search: where to look; default files.scan_roots)' },
  budget: { type: 'integer', minimum: 1, maximum: 3600, description: 'time budget, seconds (default files.budget, at most files.max_budget)' },
  budget_ms: { type: 'integer', minimum: 100, maximum: 3_600_000, description: 'the budget in ms instead (for a short one)' },
  min_size: { type: 'integer', minimum: 0, description: 'duplicates and old files: smallest file considered, bytes' },
  days: { type: 'integer', minimum: 1, maximum: 36500, description: 'old files: not used for this many days (default 180)' },
  q: { type: 'string', maxLength: 256, description: 'search: the pattern' },
  regex: { type: 'boolean', description: 'search: q is a regular expression (JavaScript syntax)' },
  case_sensitive: { type: 'boolean' },
  limit: { type: 'integer', minimum: 1, maximum: 5000, description: 'search: results at most (default 500); old files: rows (default 200, at most 1000)' },
  one_filesystem: { type: 'boolean', description: 'stay on the starting folder\'s filesystem (default true; search default false)' },
}, { title: 'StorageScanRequest', optional: ['path', 'budget', 'budget_ms', 'min_size', 'days', 'q', 'regex', 'case_sensitive', 'limit', 'one_filesystem'] });

export const folderQuery: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['path'],
  properties: { path: { type: 'string', maxLength: 4096 } },
};

const budgetParam: JsonSchema = { type: 'integer', minimum: 1, maximum: 3600, description: 'seconds' };
export const duQuery: JsonSchema = {
  type: 'object', additionalProperties: false,
  properties: { path: { type: 'string', maxLength: 4096 }, budget: budgetParam },
};
export const dupesQuery: JsonSchema = {
  type: 'object', additionalProperties: false,
  properties: { path: { type: 'string', maxLength: 4096 }, budget: budgetParam, min_size: { type: 'integer', minimum: 0 } },
};
export const oldFilesQuery: JsonSchema = {
  type: 'object', additionalProperties: false,
  properties: {
    path: { type: 'string', maxLength: 4096 }, budget: budgetParam, min_size: { type: 'integer', minimum: 0 },
    days: { type: 'integer', minimum: 1, maximum: 36500 }, limit: { type: 'integer', minimum: 1, maximum: 1000 },
  },
};
export const searchQuery: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['q'],
  properties: {
    q: { type: 'string', maxLength: 256 }, regex: { type: 'string', enum: ['0', '1', 'true', 'false'] },
    path: { type: 'string', maxLength: 4096 }, budget: budgetParam, limit: { type: 'integer', minimum: 1, maximum: 5000 },
    case: { type: 'string', enum: ['0', '1'] },
  },
};

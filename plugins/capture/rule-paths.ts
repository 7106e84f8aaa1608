// Which requests each rule matched: one count per hour, rule, method and path shape, folded per batch beside the
// minute rollups, so "what did this rule catch in the last day" reads a few thousand small rows instead of every
// record's JSON (GET /api/gateway/policy/usage).
import type { SqlValue, StorableRecord } from '@vigil/plugin-sdk';

export const HOUR = 3_600_000;
/** The rule of records that matched none (rule names are never empty). */
export const NO_RULE = '';
export const RULE_PATH_KEY = ['bucket', 'rule', 'method', 'path'];
export const RULE_PATH_COLUMNS = [...RULE_PATH_KEY, 'requests'];
/** Characters of a shape kept; longer ones end in `…` (a path is at most a few KB, a row should stay small). */
export const MAX_SHAPE_LENGTH = 300;
/** What an id-like segment becomes in a shape. */
export const ID_SEGMENT = '{id}';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGITS = /^\d+$/;
const HEX = /^[0-9a-f]{16,}$/i;
// Tokens, ULIDs and base64url ids: long, and letters and digits mixed.
const TOKEN = /^(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}$/;

/**
 * A path with its id-like segments (digits, UUIDs, long hex, long letter-and-digit tokens) written `{id}`, so
 * `/users/17/orders` and `/users/18/orders` count as one route while every other character, case and escape stays
 * as received: a spelling that only the fold of the rules makes equal (`/ADMIN/users`) stays visible.
 */
export function pathShape(path: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== 0x2f) continue;
    const segment = path.slice(start, i);
    out += DIGITS.test(segment) || UUID.test(segment) || HEX.test(segment) || TOKEN.test(segment) ? ID_SEGMENT : segment;
    if (i < path.length) out += '/';
    start = i + 1;
    if (out.length > MAX_SHAPE_LENGTH) break;
  }
  return out.length > MAX_SHAPE_LENGTH ? `${out.slice(0, MAX_SHAPE_LENGTH - 1)}…` : out;
}

type RuleFields = Pick<StorableRecord, 'time' | 'method' | 'path' | 'matched_rules'>;

/**
 * One row per (hour, rule, method, path shape) of a batch, in `RULE_PATH_COLUMNS` order, with its request count;
 * a record counts once for each rule it matched, and under `NO_RULE` when it matched none. The path is the
 * record's, so whatever the policy masked in it (`redact.detect`) stays masked here. Rows come sorted by key, so
 * concurrent upserts lock rows in one order and never deadlock.
 */
export function foldRulePaths(records: readonly RuleFields[]): SqlValue[][] {
  const byKey = new Map<string, SqlValue[]>();
  for (const r of records) {
    const bucket = Math.floor(r.time / HOUR) * HOUR;
    const shape = pathShape(r.path);
    const rules = r.matched_rules.length ? r.matched_rules : [NO_RULE];
    for (const rule of rules) {
      const k = `${bucket}\u0000${rule}\u0000${r.method}\u0000${shape}`;
      const row = byKey.get(k);
      if (row) row[4] = (row[4] as number) + 1;
      else byKey.set(k, [bucket, rule, r.method, shape, 1]);
    }
  }
  return [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((k) => byKey.get(k)!);
}

// Which requests each rule matched: one count per hour, rule, method and path shape, folded per batch beside the
// minute rollups, so "what did this rule catch in the last day" reads a few thousand small rows instead of every
// record's JSON (GET /api/gateway/policy/usage).
import type { SqlValue } from '@vigil/plugin-sdk';
import { pathTemplate } from '../fields/api-fields.js';
import type { StorableRecord } from './governed-record.js';

export const HOUR = 3_600_000;
/** The rule of records that matched none (rule names are never empty). */
export const NO_RULE = '';
export const RULE_PATH_KEY = ['bucket', 'rule', 'method', 'path'];
export const RULE_PATH_COLUMNS = [...RULE_PATH_KEY, 'requests'];
/** Characters of a shape kept; longer ones end in `…` (a path is at most a few KB, a row should stay small). */
export const MAX_SHAPE_LENGTH = 300;
/**
 * A path as a route template, by `pathTemplate` (gateway/fields) (the one `vigil spec` and field observations use), so
 * `/users/17/orders` and `/users/usr_v0/orders` count as `/users/{id}/orders`. Literal segments stay as received
 * (case, escapes, empty segments): a spelling that only the fold of the rules makes equal (`/ADMIN/users`) stays
 * visible. Cut to MAX_SHAPE_LENGTH characters, ending in `…`.
 */
export function pathShape(path: string): string {
  // Every segment pathTemplate makes a parameter holds a digit, an `@` or is long; most paths of an API without ids
  // in them are their own shape.
  const shape = /[0-9@%]/.test(path) || path.length > 64 ? pathTemplate(path).path : path;
  return shape.length > MAX_SHAPE_LENGTH ? `${shape.slice(0, MAX_SHAPE_LENGTH - 1)}…` : shape;
}

type RuleFields = Pick<StorableRecord, 'time' | 'method' | 'path' | 'matched_rules'>;

/**
 * One row per (hour, rule, method, path shape) of a batch, in `RULE_PATH_COLUMNS` order, with its request count;
 * a record counts once for each rule it matched, and under `NO_RULE` when it matched none. The path is the
 * record's, so whatever the policy masked in it (`redact.detect`) stays masked here. Rows come sorted by key, so
 * concurrent upserts lock rows in one order and never deadlock.
 */
export function foldRulePaths(records: readonly RuleFields[]): SqlValue[][] {
  // Nested by key part: no key string is built per record (a batch holds few distinct hours, methods and paths).
  const hours = new Map<number, Map<string, Map<string, Map<string, SqlValue[]>>>>();
  const shapes = new Map<string, string>();
  const rows: SqlValue[][] = [];
  for (const r of records) {
    const bucket = Math.floor(r.time / HOUR) * HOUR;
    let methods = hours.get(bucket);
    if (!methods) hours.set(bucket, (methods = new Map()));
    let paths = methods.get(r.method);
    if (!paths) methods.set(r.method, (paths = new Map()));
    let shape = shapes.get(r.path);
    if (shape === undefined) shapes.set(r.path, (shape = pathShape(r.path)));
    // Paths of one shape share its counts.
    let rules = paths.get(shape);
    if (!rules) paths.set(shape, (rules = new Map()));
    for (const rule of r.matched_rules.length ? r.matched_rules : NO_RULE_LIST) {
      const row = rules.get(rule);
      if (row) row[4] = (row[4] as number) + 1;
      else {
        const added: SqlValue[] = [bucket, rule, r.method, shape, 1];
        rules.set(rule, added);
        rows.push(added);
      }
    }
  }
  // Sorted in the primary key's order (bucket, rule, method, path).
  return rows.sort(compareKeys);
}

const NO_RULE_LIST: readonly string[] = [NO_RULE];

function compareKeys(a: SqlValue[], b: SqlValue[]): number {
  for (let i = 0; i < 4; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * A synthetic error standing for "none of the anyOf/oneOf branches fits the kind of value given". `expected` holds
 * one entry per distinct expectation: `{ type: 'string' }`, `{ const: 'auto' }`, `{ enum: [...] }`.
 */
export const alternativesKeyword = 'vigil:alternatives';
export type Expectation = { type: string } | { const: unknown } | { enum: unknown[] };

const composites = new Set(['anyOf', 'oneOf']);
const shapeKeywords = new Set(['type', 'const', 'enum', alternativesKeyword]);

const underPath = (parent: string, child: string): boolean => child === parent || child.startsWith(`${parent}/`);
const isDirectChild = (parent: string, child: string): boolean =>
  child.startsWith(`${parent}/`) && !child.slice(parent.length + 1).includes('/');

/** True when `inner` comes from evaluating one of the branches of the composite error `outer`. */
function within(outer: ErrorObject, inner: ErrorObject): boolean {
  return inner !== outer && inner.schemaPath.startsWith(`${outer.schemaPath}/`) && underPath(outer.instancePath, inner.instancePath);
}

/**
 * Removes Ajv's noise so that each real problem is reported once:
 * - `if` errors ("must match then schema") go; the then/else errors they summarise stay.
 * - errors from inside `propertyNames` and `contains` (each item that did not match) go; the keyword's own error
 *   says it.
 * - each failed anyOf/oneOf is replaced by the errors of the branch the value most likely meant (the one whose type
 *   and discriminating constants fit, with the fewest errors), or, when no branch fits the kind of value at all,
 *   by one `vigil:alternatives` error listing what would have been accepted.
 */
export function reduceAjvErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const containsErrors = errors.filter((e) => e.keyword === 'contains');
  let list = errors.filter((e) => e.keyword !== 'if' && (e.propertyName === undefined || e.keyword === 'propertyNames')
    && !containsErrors.some((c) => within(c, e)));
  for (;;) {
    const outer = list.find((e) => isOpenComposite(e) && !list.some((o) => isOpenComposite(o) && within(o, e)));
    if (!outer) return list;
    const members = list.filter((e) => within(outer, e));
    const rest = list.filter((e) => e !== outer && !members.includes(e));
    list = [...rest, ...resolveComposite(outer, members)];
  }
}

/** A failed anyOf/oneOf whose branches all failed (a oneOf that matched several branches has no branch errors). */
function isOpenComposite(e: ErrorObject): boolean {
  return composites.has(e.keyword) && !(e.keyword === 'oneOf' && Array.isArray(e.params.passingSchemas));
}

function resolveComposite(outer: ErrorObject, members: ErrorObject[]): ErrorObject[] {
  const byBranch = new Map<string, ErrorObject[]>();
  for (const e of members) {
    const branch = e.schemaPath.slice(outer.schemaPath.length + 1).split('/')[0];
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
  }
  if (byBranch.size === 0) return [outer];
  const branches = [...byBranch.values()].map((errs) => {
    const reduced = reduceAjvErrors(errs);
    const shape = reduced.filter((e) => e.instancePath === outer.instancePath && shapeKeywords.has(e.keyword));
    // A tag: a key whose schema is one constant (`kind: { const: webhook }`), which tells the branches apart.
    const discriminators = reduced.filter((e) => isDirectChild(outer.instancePath, e.instancePath)
      && (e.keyword === 'const' || (e.keyword === 'enum' && (e.params.allowedValues as unknown[]).length === 1)));
    return { reduced, shape, discriminators };
  });

  const fitting = branches.filter((b) => b.shape.length === 0);
  if (fitting.length === 0) return [alternatives(outer, branches.flatMap((b) => b.shape))];
  if (fitting.length === 1) return fitting[0].reduced;

  const undiscriminated = fitting.filter((b) => b.discriminators.length === 0);
  if (undiscriminated.length > 0) return fewest(undiscriminated).reduced;

  // Every branch that fits the kind of value is ruled out by a tag-like constant (`kind: webhook`): when they all
  // disagree on the same key, the useful message is that key's allowed values, not each branch's complaints.
  const tagPaths = new Set(fitting.map((b) => b.discriminators[0].instancePath));
  if (tagPaths.size === 1 && fitting.every((b) => b.discriminators.length === 1)) {
    const tag = fitting[0].discriminators[0];
    const allowed = fitting.flatMap((b) => expectationsOf(b.discriminators[0]))
      .flatMap((x) => ('const' in x ? [x.const] : 'enum' in x ? x.enum : []));
    return [{ ...tag, keyword: 'enum', params: { allowedValues: unique(allowed) }, schemaPath: `${outer.schemaPath}/*` }];
  }
  return fewest(fitting).reduced;
}

function fewest<T extends { reduced: ErrorObject[] }>(branches: T[]): T {
  return branches.reduce((best, b) => (b.reduced.length < best.reduced.length ? b : best));
}

function alternatives(outer: ErrorObject, shapeErrors: ErrorObject[]): ErrorObject {
  const expected: Expectation[] = [];
  const seen = new Set<string>();
  for (const x of shapeErrors.flatMap(expectationsOf)) {
    const id = JSON.stringify(x);
    if (!seen.has(id)) {
      seen.add(id);
      expected.push(x);
    }
  }
  return { ...outer, keyword: alternativesKeyword, params: { expected } };
}

/** What a shape error says would have been accepted. */
export function expectationsOf(e: ErrorObject): Expectation[] {
  switch (e.keyword) {
    case 'type':
      return (Array.isArray(e.params.type) ? e.params.type : String(e.params.type).split(',')).map((type: string) => ({ type }));
    case 'const':
      return [{ const: e.params.allowedValue }];
    case 'enum':
      return [{ enum: e.params.allowedValues as unknown[] }];
    case alternativesKeyword:
      return e.params.expected as Expectation[];
    default:
      return [];
  }
}

function unique(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const id = JSON.stringify(v);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

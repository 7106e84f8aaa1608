// The dashboard's "try a request": one request (and optionally its response) through the policy in force, by the
// code path of `vigil test` (govern-case.ts), answered with the record the gateway would store and why. A try is
// never stored, published or exported: the exchange exists only for the length of the call.
import type { JsonSchema } from '@vigil/plugin-sdk';
import type { CompiledPolicy } from '../../policies/compile.js';
import { REDACTED } from '../../policies/compile-json-path.js';
import type { RestrictPart, RuleConfig } from '../../policies/schema.js';
import { governCase } from './govern-case.js';
import { ScanCollector, type Finding } from './scan/scan-core.js';
import type { TestCase } from './test-cases-schema.js';
import type { GovernedRecord } from '../../gateway/govern/types.js';

/** Bytes of a try's JSON body: room for a body and a response body of a few hundred KB each, escapes included. */
export const TRY_BODY_LIMIT = 1024 * 1024;

export type TryHeaders = Record<string, string | string[]>;

/** `POST /api/gateway/policy/try`'s body. */
export interface TryInput {
  method: string;
  /** As the client sends it: may hold a query, and any spelling (rules match its fold). */
  path: string;
  headers?: TryHeaders;
  /** Appended to the path's own query, in order; a list repeats the name. */
  query?: TryHeaders;
  /** The request body as sent; empty or absent for none. */
  body?: string;
  response?: { status?: number; headers?: TryHeaders; body?: string };
}

// An RFC 9110 token, as header names in rules are.
const headerName = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
const values: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 100 }] };
const headers: JsonSchema = {
  type: 'object', maxProperties: 200, propertyNames: { pattern: headerName, maxLength: 256 }, additionalProperties: values,
};

export const tryInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'path'],
  properties: {
    method: { type: 'string', pattern: '^[A-Za-z]{1,16}$', description: 'GET, POST, …' },
    path: { type: 'string', pattern: '^/', maxLength: 8192, description: 'The request-target as the client sends it, query included.' },
    headers: { ...headers, description: 'Request headers; a list repeats the header.' },
    query: {
      type: 'object', maxProperties: 200, additionalProperties: values,
      description: 'Query parameters appended to the path (encoded here); a list repeats the name.',
    },
    body: { type: 'string', description: 'The request body as sent. Without a Content-Type header it is sent as application/json.' },
    response: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { type: 'integer', minimum: 0, maximum: 599, description: 'Default 200; 0 is an upstream that never answered.' },
        headers,
        body: { type: 'string' },
      },
    },
  },
};

/** What a try answers: the record as stored, and the decision that made it. */
export interface TryResult {
  /** Always false: a try is never stored, published or exported. */
  stored: false;
  record: GovernedRecord;
  matched_rules: string[];
  /** The matched rules' globs: what the record is filed under (`route`). */
  route: string[];
  /** Per part, the matching rules that keep it out of capture (empty: captured). */
  restricted: Record<RestrictPart, string[]>;
  /** `[REDACTED]` marks in the record: masked values, and spans masked inside strings. */
  redacted: number;
  sampling: {
    /** The merged `sample`: the share of requests whose bodies are kept. */
    rate: number;
    /** The last matching rule that sets `sample`; null when none does (1, everything kept). */
    rule: string | null;
    keep_errors: boolean;
    /** Whether this try's bodies were kept. A try is the case of a roll of 0: kept whenever the rate is above 0. */
    kept: boolean;
  };
  /** `[{ rule, module }]`: WASM modules the matched rules name, which a try does not run (`vigil policy test` does). */
  wasm_not_applied: { rule: string; module: string }[];
  /**
   * Values of the record that look sensitive and that no rule masked, as `vigil scan` finds them: where, which
   * detector, a masked sample, and the rule that would mask it (YAML).
   */
  unmasked: Omit<Finding, 'records' | 'route'>[];
}

/** What `vigil scan` would flag in the record: values stored in clear that its detectors call sensitive. */
function unmaskedValues(record: GovernedRecord): TryResult['unmasked'] {
  const scan = new ScanCollector();
  scan.add(record);
  return scan.findings().map(({ part, field, kind, why, sample, rule }) => ({ part, field, kind, why, sample, rule }));
}

/** `path` with `query` appended, each name and value percent-encoded. */
export function targetOf(path: string, query: TryHeaders | undefined): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(v)}`);
  }
  if (pairs.length === 0) return path;
  return `${path}${path.includes('?') ? (path.endsWith('?') || path.endsWith('&') ? '' : '&') : '?'}${pairs.join('&')}`;
}

/** The try as a `vigil test` case: the same exchange the case would make. */
export function tryCase(input: TryInput): TestCase {
  const response = input.response;
  return {
    name: 'try',
    request: {
      method: input.method.toUpperCase(),
      path: targetOf(input.path, input.query),
      headers: input.headers ?? {},
      ...(input.body ? { raw: input.body } : {}),
    },
    ...(response ? {
      response: { status: response.status ?? 200, headers: response.headers ?? {}, ...(response.body ? { raw: response.body } : {}) },
    } : {}),
    // Nothing is checked: the answer is the record itself.
    expect: {},
  };
}

/** Markers in a value: whole masked values, and spans a detector masked inside a string or an object key. */
function countMarks(value: unknown): number {
  if (typeof value === 'string') return value.split(REDACTED).length - 1;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + countMarks(v), 0);
  if (value && typeof value === 'object') {
    return Object.entries(value).reduce<number>((n, [k, v]) => n + countMarks(k) + countMarks(v), 0);
  }
  return 0;
}

/**
 * Governs `input` with `policy` (compiled from `rules`, in the same order) and explains the outcome. `written` are
 * the rules as the config file writes them, for the module names a try does not run.
 */
export async function tryRequest(input: TryInput, policy: CompiledPolicy, written: readonly RuleConfig[]): Promise<TryResult> {
  const { decision, record } = await governCase(tryCase(input), policy, 'try');
  const rules = policy.rules;
  const restricted: Record<RestrictPart, string[]> = { request_body: [], response_body: [], headers: [] };
  let sampleRule: string | null = null;
  const wasm: { rule: string; module: string }[] = [];
  for (const i of decision.ruleIndexes) {
    const rule = rules[i];
    for (const part of rule.restrict ?? []) if (!restricted[part].includes(rule.name)) restricted[part].push(rule.name);
    if (rule.sample !== undefined) sampleRule = rule.name;
    const module = written[i]?.wasm ?? rule.wasm;
    if (module !== undefined) wasm.push({ rule: rule.name, module });
  }
  return {
    stored: false,
    record,
    matched_rules: [...decision.matchedRules],
    route: [...decision.routes],
    restricted,
    redacted: countMarks(record),
    sampling: { rate: decision.sample, rule: sampleRule, keep_errors: decision.keepErrors, kept: record.sampled },
    wasm_not_applied: wasm,
    unmasked: unmaskedValues(record),
  };
}

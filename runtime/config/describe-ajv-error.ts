import type { ErrorObject } from 'ajv/dist/2020.js';
import { ConfigErrors, type ConfigProblem, type ConfigProblemCode } from './errors.js';
import { configFormats } from './formats.js';
import { formatKeyPath, pointerToPath } from './key-path.js';
import type { LoadedConfig } from './loaded-config.js';
import { locateNearest, type LocateTarget } from './locate.js';
import { alternativesKeyword, type Expectation } from './reduce-ajv-error-list.js';
import { suggestKey } from './suggest-key.js';

/** What an Ajv error needs to become a ConfigProblem: which document, and where the validated value sits in it. */
export interface ErrorSite {
  config: LoadedConfig;
  basePath: (string | number)[];
  /** The value that was validated: it tells list indexes from numeric keys in Ajv's JSON pointers. */
  value: unknown;
}

type Described = { code: ConfigProblemCode; message: string; at: LocateTarget; key?: string; suggestion?: string };

const comparisons: Record<string, string> = { '<=': '≤', '>=': '≥', '<': '<', '>': '>' };
const typeNames: Record<string, [bare: string, withArticle: string]> = {
  string: ['string', 'a string'], integer: ['integer', 'an integer'], number: ['number', 'a number'],
  boolean: ['boolean', 'a boolean'], object: ['mapping', 'a mapping'], array: ['list', 'a list'], null: ['null', 'null'],
};
/** Lists of allowed keys longer than this are left to the schema (and the editor) rather than printed. */
const maxListedKeys = 12;

/** Turns one (reduced) Ajv error into a ConfigProblem with a human message and a place in the file. */
export function describeAjvError(error: ErrorObject, site: ErrorSite): ConfigProblem {
  const path = [...site.basePath, ...pointerToPath(error.instancePath, site.value)];
  const described = describe(error, path);
  const fullPath = described.key === undefined ? path : [...path, described.key];
  const keyPath = formatKeyPath(fullPath);
  // A missing key is not in the file: point at the mapping that should hold it.
  const position = error.keyword === 'required' || error.keyword === 'dependentRequired'
    ? locateNearest(site.config.locate, path, 'key')
    : locateNearest(site.config.locate, fullPath, described.at);
  const problem: ConfigProblem = {
    code: described.code, file: site.config.file, line: position.line, column: position.column, keyPath,
    message: described.message,
  };
  if (described.suggestion !== undefined) problem.suggestion = described.suggestion;
  return problem;
}

function describe(e: ErrorObject, path: (string | number)[]): Described {
  const subject = path.length === 0 ? 'the top level' : formatKeyPath(path);
  const child = (key: string) => formatKeyPath([...path, key]);
  const value = (code: ConfigProblemCode, text: string): Described => ({ code, message: `${subject} ${text}`, at: 'value' });
  const p = e.params;
  switch (e.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(p.additionalProperty ?? p.unevaluatedProperty);
      const allowed = allowedKeys(e.parentSchema);
      const suggestion = suggestKey(key, allowed);
      let message = `unknown key ${child(key)}`;
      if (suggestion === undefined) {
        if (allowed.length === 0) message += `; ${subject} takes no keys of its own`;
        else if (allowed.length <= maxListedKeys) message += `; allowed here: ${allowed.join(', ')}`;
      }
      return { code: ConfigErrors.UNKNOWN_KEY, message, at: 'key', key, ...(suggestion === undefined ? {} : { suggestion }) };
    }
    case 'false schema':
      return { code: ConfigErrors.UNKNOWN_KEY, message: `${subject} is not allowed here`, at: 'key' };
    case 'required': {
      const key = String(p.missingProperty);
      return { code: ConfigErrors.REQUIRED, message: `missing required key ${child(key)}`, at: 'key', key };
    }
    case 'dependentRequired':
    case 'dependencies': {
      const key = String(p.missingProperty);
      return {
        code: ConfigErrors.REQUIRED, at: 'key', key,
        message: `missing key ${child(key)}, required when ${child(String(p.property))} is set`,
      };
    }
    case 'type':
      return value(ConfigErrors.TYPE, `must be ${expectationText((Array.isArray(p.type) ? p.type : String(p.type).split(',')).map((type: string) => ({ type })))}, got ${valueKind(e.data)}`);
    case alternativesKeyword: {
      const expected = p.expected as Expectation[];
      const code = expected.some((x) => 'type' in x) ? ConfigErrors.TYPE : ConfigErrors.ENUM;
      return value(code, `must be ${expectationText(expected)}, got ${valueKind(e.data)}`);
    }
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      const strings = allowed.filter((v): v is string => typeof v === 'string');
      const suggestion = typeof e.data === 'string' ? suggestKey(e.data, strings) : undefined;
      return { ...value(ConfigErrors.ENUM, `must be one of: ${allowed.map(plain).join(', ')}`), ...(suggestion === undefined ? {} : { suggestion }) };
    }
    case 'const':
      return value(ConfigErrors.ENUM, `must be ${JSON.stringify(p.allowedValue)}`);
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
    case 'formatMinimum': case 'formatMaximum':
      return value(ConfigErrors.RANGE, `must be ${comparisons[String(p.comparison)] ?? p.comparison} ${p.limit}`);
    case 'multipleOf':
      return value(ConfigErrors.RANGE, `must be a multiple of ${p.multipleOf}`);
    case 'minLength':
      return value(ConfigErrors.RANGE, p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters long`);
    case 'maxLength':
      return value(ConfigErrors.RANGE, `must be at most ${p.limit} characters long`);
    case 'minItems':
      return value(ConfigErrors.RANGE, p.limit === 1 ? 'must not be empty' : `must have at least ${p.limit} items`);
    case 'maxItems':
      return value(ConfigErrors.RANGE, `must have at most ${plural(p.limit, 'item')}`);
    case 'minProperties':
      return value(ConfigErrors.RANGE, p.limit === 1 ? 'must not be empty' : `must have at least ${p.limit} keys`);
    case 'maxProperties':
      return value(ConfigErrors.RANGE, `must have at most ${plural(p.limit, 'key')}`);
    case 'format':
      return value(ConfigErrors.FORMAT, `must be ${configFormats[String(p.format)]?.expected ?? `a valid ${p.format}`}`);
    case 'pattern':
      return value(ConfigErrors.FORMAT, `must match the pattern ${p.pattern}`);
    case 'uniqueItems':
      return value(ConfigErrors.VALUE, `must not repeat items (items ${p.j} and ${p.i} are equal)`);
    case 'contains':
      return value(ConfigErrors.VALUE, `must contain at least ${plural(p.minContains ?? 1, 'matching item')}`);
    case 'propertyNames':
      return { code: ConfigErrors.UNKNOWN_KEY, message: `${subject} has an invalid key ${JSON.stringify(p.propertyName)}`, at: 'value' };
    case 'oneOf':
      return value(ConfigErrors.VALUE, 'matches more than one of the allowed forms; make it match exactly one');
    case 'not':
      return value(ConfigErrors.VALUE, 'has a value that is not allowed here');
    default:
      return value(ConfigErrors.VALUE, e.message ?? `fails the schema keyword ${e.keyword}`);
  }
}

/** Keys a mapping schema declares, including those of its allOf/anyOf/oneOf parts (for unevaluatedProperties). */
function allowedKeys(schema: unknown): string[] {
  const keys = new Set<string>();
  const collect = (s: unknown, depth: number) => {
    if (s === null || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) keys.add(k);
    if (depth > 0) return;
    for (const list of [o.allOf, o.anyOf, o.oneOf]) if (Array.isArray(list)) for (const sub of list) collect(sub, depth + 1);
  };
  collect(schema, 0);
  return [...keys];
}

function expectationText(expected: Expectation[]): string {
  if (expected.length === 1 && 'type' in expected[0]) return typeNames[expected[0].type]?.[1] ?? expected[0].type;
  const parts = expected.map((x) =>
    'type' in x ? typeNames[x.type]?.[0] ?? x.type
      : 'const' in x ? JSON.stringify(x.const)
        : `one of ${x.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  return parts.length <= 2 ? parts.join(' or ') : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

/** The kind of a value, never the value itself: configs hold secrets, and messages end up in logs. */
export function valueKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'mapping';
  return typeof v;
}

const plain = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const plural = (n: unknown, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { policySchema, rulesSchema } from './schema.js';
import { PolicyError, PolicyErrors } from './errors.js';
import type { PolicyConfig, RuleConfig } from './schema.js';

let ajv: Ajv | undefined;
const validators = new Map<object, ValidateFunction>();

// Compiled once per thread, on first use: Ajv compilation costs milliseconds, validation microseconds.
function validatorFor(schema: object): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    ajv ??= new Ajv({ strict: true, allErrors: true, verbose: true, useDefaults: false });
    v = ajv.compile(schema);
    validators.set(schema, v);
  }
  return v;
}

function check(schema: object, value: unknown, root: string): void {
  const validate = validatorFor(schema);
  if (validate(value)) return;
  const problems = describeSchemaErrors(validate.errors ?? [], root);
  const first = problems[0] ?? { where: root || '(top level)', message: 'invalid policy' };
  const rest = problems.slice(1).map((p) => `\n  ${p.where}: ${p.message}`).join('');
  throw new PolicyError(PolicyErrors.INVALID, first.where, first.message + rest);
}

/** `/rules/0/match/path` -> `rules[0].match.path`. */
export function keyPath(instancePath: string, root = ''): string {
  let out = root;
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^[0-9]+$/.test(part)) out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out || '(top level)';
}

/** One line per schema violation, each starting with the key path. */
export function describeSchemaErrors(errors: readonly ErrorObject[], root = ''): { where: string; message: string }[] {
  const out: { where: string; message: string }[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let where = keyPath(e.instancePath, root);
    let message: string;
    switch (e.keyword) {
      case 'additionalProperties': {
        const key = String((e.params as { additionalProperty: string }).additionalProperty);
        where = where === '(top level)' ? key : `${where}.${key}`;
        const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
        message = `unknown key${allowed.length ? ` (allowed here: ${allowed.join(', ')})` : ''}`;
        break;
      }
      case 'required':
        message = `missing required key "${(e.params as { missingProperty: string }).missingProperty}"`;
        break;
      case 'enum':
        message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'propertyNames':
        where = `${where}.${(e.params as { propertyName: string }).propertyName}`;
        message = 'invalid name';
        break;
      case 'pattern':
        message = `${JSON.stringify(e.data)} must match ${(e.params as { pattern: string }).pattern}`;
        break;
      default:
        message = e.message ?? e.keyword;
    }
    // propertyNames reports twice (the name and the pattern); one line per place is enough.
    if (e.keyword === 'pattern' && e.propertyName !== undefined) continue;
    const line = `${where}: ${message}`;
    if (!seen.has(line)) { seen.add(line); out.push({ where, message }); }
  }
  return out;
}

/**
 * Strictly validates a policy (`service` and `rules`). Throws `VIGIL_ERR_POLICY_INVALID` naming every bad key path.
 * The runtime's config layer validates the same schemas when it loads a config file; this is for code that gets
 * a policy some other way.
 */
export function validatePolicy(config: unknown): asserts config is PolicyConfig {
  check(policySchema, config, '');
}

/** Strictly validates a `rules` list; key paths start with `rules`. */
export function validateRules(rules: unknown): asserts rules is RuleConfig[] {
  check(rulesSchema, rules, 'rules');
}

// The answers of the policy routes (policy-routes.ts).
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { ruleSchema } from '../../policies/schema.js';
import { governedRecordSchema } from '../../gateway/records/governed-record-schema.js';

const names: JsonSchema = { type: 'array', items: { type: 'string' } };

/** A rule as the config file writes it (policies/README.md), with its place, where it is written, and its module's digest. */
const listedRule: JsonSchema = closedObject({
  index: { type: 'integer', minimum: 0 },
  ...ruleSchema.properties,
  wasm_sha256: { type: 'string', description: 'SHA-256 of the module file as loaded, beside `wasm`.' },
  source: closedObject({ file: { type: 'string' }, line: { type: 'integer' }, column: { type: 'integer' } }, { title: 'ConfigLocation' }),
}, { title: 'ListedRule', optional: ['restrict', 'redact', 'labels', 'sample', 'keep_errors', 'meter', 'wasm', 'wasm_sha256', 'source'] });

export const policySchema = closedObject({
  config_file: { type: ['string', 'null'] },
  loaded_at: { type: 'integer', description: 'Epoch ms at which the rules in force were loaded (start or reload).' },
  reloads: { type: 'integer', minimum: 0, description: 'Reloads (SIGHUP) whose rules were taken since the runtime started.' },
  rules: { type: 'array', items: listedRule },
}, { title: 'PolicyInForce' });

export const tryResultSchema = closedObject({
  stored: { const: false, description: 'A try is never stored, published or exported.' },
  record: governedRecordSchema,
  matched_rules: names,
  route: { ...names, description: 'The matched rules\' globs: what the record is filed under.' },
  restricted: closedObject({ request_body: names, response_body: names, headers: names }, {
    title: 'RestrictedParts', description: 'Per part, the matching rules that keep it out of capture (empty: captured).',
  }),
  redacted: { type: 'integer', minimum: 0, description: '[REDACTED] marks in the record.' },
  sampling: closedObject({
    rate: { type: 'number', minimum: 0, maximum: 1 },
    rule: { type: ['string', 'null'] },
    keep_errors: { type: 'boolean' },
    kept: { type: 'boolean' },
  }, { title: 'TrySampling' }),
  wasm_not_applied: { type: 'array', items: closedObject({ rule: { type: 'string' }, module: { type: 'string' } }, { title: 'WasmNotApplied' }) },
  unmasked: {
    type: 'array',
    description: 'Values of the record that look sensitive and that no rule masked, as `vigil scan` finds them.',
    items: closedObject({
      part: { enum: ['query', 'header', 'request_body', 'response_body'] },
      field: { type: 'string', description: 'Parameter or header name, or a JSON path (`$` for a text body).' },
      kind: { type: 'string', description: 'The detector that recognised it.' },
      why: { type: 'string' },
      sample: { type: 'string', description: 'The value, masked but for a few characters.' },
      rule: { type: 'string', description: 'The rule that would mask it, as YAML for the `rules:` list.' },
    }, { title: 'UnmaskedValue' }),
  },
}, { title: 'TryResult' });

import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';

/**
 * Codes of the policy language. Every one is caused by the policy (the `rules` section, a `vigil test` policy file, a
 * policy sent to the API), so each message names the rule position (`rules[i]…`), says what is wrong and what to
 * write instead. Found while the config is checked, they are reported as VIGIL_ERR_CONFIG_VALUE with file and line.
 */
export const PolicyErrors = defineErrorCodes('POLICY', {
  INVALID: {
    meaning: 'The policy does not match its schema: an unknown key, a wrong type, a value out of range (`sample` outside 0-1); ' +
      'every bad key path is listed.',
    action: 'Fix each key path listed; policies/README.md describes every key of a rule.',
  },
  DUPLICATE_RULE: {
    meaning: 'Two rules have the same name, so `matched_rules` in records would be ambiguous.',
    action: 'Give each rule its own name.',
  },
  GLOB: {
    meaning: 'A `match.path` glob cannot be compiled: it does not start with /, has a ? or #, uses ** inside a segment, or ' +
      'is encoded in more layers than the path fold decodes.',
    action: 'Rewrite the glob as the message says: `/a/*/c`, `/a/**/b`; query parameters are redacted with `redact.query_params`.',
  },
  JSON_PATH: {
    meaning: 'A JSON path (`redact.json_fields`, `meter.tokens`) cannot be compiled.',
    action: 'Write it as policies/README.md shows (`$.user.email`, `$.items.*.card`, `$.**.card`); the message says what is wrong.',
  },
  LABEL: {
    meaning: 'A `labels` entry has a source other than `header:<Name>`, or is named like a built-in dimension of the traffic ' +
      'metrics.',
    action: 'Write the source as `header:<Header-Name>`, and rename a label that clashes (e.g. `route` → `route_label`).',
  },
});

export type PolicyErrorCode = ErrorCodeOf<typeof PolicyErrors>;

/** A policy that cannot be compiled. `where` is the key path inside the policy, e.g. `rules[2].match.path`. */
export class PolicyError extends VigilError {
  readonly where: string;
  /** The message without its place: what is wrong and what to write instead. */
  readonly detail: string;
  constructor(code: PolicyErrorCode, where: string, detail: string) {
    super(code, `${where}: ${detail}`, { status: 400 });
    this.name = 'PolicyError';
    this.where = where;
    this.detail = detail;
  }
}

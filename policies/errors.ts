import { VigilError } from '@vigil/plugin-sdk';

/**
 * Errors of the policy language. Every one is caused by the policy file, so each message names the rule position
 * (`rules[i]…`), says what is wrong and what to write instead.
 */
export const PolicyErrorCode = {
  /** The policy does not match the schema (unknown key, wrong type, `sample` out of range…). */
  invalid: 'VIGIL_ERR_POLICY_INVALID',
  /** Two rules share a name; `matched_rules` would be ambiguous. */
  duplicateRule: 'VIGIL_ERR_POLICY_DUPLICATE_RULE',
  /** A `match.path` glob cannot be compiled. */
  badGlob: 'VIGIL_ERR_POLICY_GLOB',
  /** A JSON path expression (`redact.json_fields`, `meter.tokens`) cannot be compiled. */
  badJsonPath: 'VIGIL_ERR_POLICY_JSON_PATH',
  /** A `labels` source is not `header:<Name>`. */
  badLabel: 'VIGIL_ERR_POLICY_LABEL',
} as const;

export type PolicyErrorCode = (typeof PolicyErrorCode)[keyof typeof PolicyErrorCode];

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

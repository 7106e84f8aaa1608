import type { JsonSchema } from '@vigil/plugin-sdk';
import { DETECTOR_KINDS, type DetectorKind } from './detectors/types.js';

/** Parts of an exchange a rule can keep out of capture altogether. */
export type RestrictPart = 'request_body' | 'response_body' | 'headers';

/** One entry of the top-level `rules` list, as written in the policy file. */
export interface RuleConfig {
  name: string;
  match: {
    /** Glob on the folded path (README.md, "Paths"): `*` within one segment, `**` zero or more segments. */
    path: string;
    /** Optional method filter, case-insensitive. Absent: every method. */
    methods?: string[];
  };
  restrict?: RestrictPart[];
  redact?: {
    headers?: string[];
    query_params?: string[];
    /** JSON path expressions: `$.a.b`, `$.*.x`, `$.**.x` and combinations. */
    json_fields?: string[];
    /** Kinds of sensitive-looking values masked wherever they appear: path, query, headers, labels, bodies. */
    detect?: DetectorKind[];
  };
  /** Label name to source; the only source form is `header:<Header-Name>`. */
  labels?: Record<string, string>;
  /** Fraction of requests whose bodies are kept, in [0, 1]. */
  sample?: number;
  /** Keep bodies of 5xx responses (and of exchanges the upstream never answered) whatever `sample` says. */
  keep_errors?: boolean;
  meter?: {
    /** JSON path of the token count, read from the response body, else the request body. */
    tokens?: string;
  };
  /**
   * A WASM policy module (built with `vigil policy build`) applied, on the telemetry lane, to the requests this
   * rule's `match` selects. Relative to the config file; the proxy hands the telemetry lane an absolute path.
   */
  wasm?: string;
}

/** The standalone gateway's `service` section. */
export interface ServiceConfig {
  /** The proxied API, an http(s) URL. */
  upstream: string;
  /** `port` or `host:port`; default 8080. */
  listen?: string | number;
}

/** The governance part of a config file: what the policy language reads. */
export interface PolicyConfig {
  service?: ServiceConfig;
  rules?: RuleConfig[];
}

export const DEFAULT_LISTEN = 8080;

// An RFC 9110 token: what a header name may be. Names outside it could never match a header on the wire.
const headerName = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
// Labels become metric dimensions, so their names follow Prometheus label syntax (and `__` is reserved there).
const labelName = '^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$';

const stringList = (item: JsonSchema): JsonSchema => ({ type: 'array', items: item });

/** Schema of one rule, as the config file writes it. */
export const ruleSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'match'],
  properties: {
    name: { type: 'string', minLength: 1, description: 'Rule identifier, listed in matched_rules.' },
    match: {
      type: 'object',
      additionalProperties: false,
      required: ['path'],
      properties: {
        path: { type: 'string', pattern: '^/', description: 'Path glob, starting with /; matched against the folded path (policies/README.md, "Paths").' },
        methods: stringList({ type: 'string', pattern: '^[A-Za-z]+$' }),
      },
    },
    restrict: stringList({ type: 'string', enum: ['request_body', 'response_body', 'headers'] }),
    redact: {
      type: 'object',
      additionalProperties: false,
      properties: {
        headers: stringList({ type: 'string', pattern: headerName }),
        query_params: stringList({ type: 'string', minLength: 1 }),
        json_fields: stringList({ type: 'string', pattern: '^\\$' }),
        detect: {
          ...stringList({ type: 'string', enum: [...DETECTOR_KINDS] }),
          description: 'Kinds of sensitive-looking values masked wherever they appear in the record, whatever the field is called.',
        },
      },
    },
    labels: {
      type: 'object',
      propertyNames: { pattern: labelName },
      additionalProperties: { type: 'string', pattern: `^header:${headerName.slice(1)}` },
    },
    sample: { type: 'number', minimum: 0, maximum: 1 },
    keep_errors: { type: 'boolean' },
    meter: {
      type: 'object',
      additionalProperties: false,
      properties: { tokens: { type: 'string', pattern: '^\\$' } },
    },
    wasm: {
      type: 'string', minLength: 1,
      description: 'WASM policy module for the requests this rule matches; relative to the config file.',
    },
  },
};

/** Schema of the top-level `rules` key: an ordered list of rules. */
export const rulesSchema: JsonSchema = { type: 'array', items: ruleSchema };

/** Schema of the top-level `service` key (standalone gateway). */
export const serviceSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['upstream'],
  properties: {
    upstream: { type: 'string', pattern: '^https?://[^/?#\\s]+', description: 'The proxied API, http(s) URL.' },
    listen: {
      description: 'Port, host:port or :port the proxy listens on (every interface unless a host is named).',
      default: DEFAULT_LISTEN,
      anyOf: [
        { type: 'integer', minimum: 0, maximum: 65535 },
        { type: 'string', pattern: '^(?:(?:[^:\\s\\[\\]]*|\\[[0-9A-Fa-f:.]+\\]):)?[0-9]{1,5}$' },
      ],
    },
  },
};

/** Schema of a whole policy file (`service` and `rules`), for tools that read a policy file on its own. */
export const policySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { service: serviceSchema, rules: rulesSchema },
};

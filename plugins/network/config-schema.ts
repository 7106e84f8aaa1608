import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `network:` section. `network: {}` turns the Network and Traffic pages on with the defaults. */
export interface NetworkConfig {
  /** Where the host's proc/ and etc/ are: `/`, or the host's root mounted into a container (`/host`). */
  root: string;
  /** The time budget of one walk of every process's descriptors (who owns which socket). */
  owner_walk_budget: string | number;
  resolve: { timeout: string | number; concurrency: number; per_request: number; ttl: string | number };
  captures: { max_packets: number; max_seconds: number; max_bytes: number; keep: number };
}

const duration = (min: string, max: string, def: string, description: string): JsonSchema =>
  ({ type: ['string', 'integer'], format: 'duration', formatMinimum: min, formatMaximum: max, default: def, description });

export const networkConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Listening ports with their processes (Stop and Force), connections, interface rates, firewall state and packet capture.',
  properties: {
    root: {
      type: 'string', minLength: 1, maxLength: 4096, default: '/',
      description: 'The directory holding the host\'s proc/ and etc/passwd: `/`, or where the host\'s root is mounted in a container.',
    },
    owner_walk_budget: duration('100ms', '30s', '3s', 'How long one walk of every process\'s descriptors may take (who owns which socket); past it the answer says it is partial.'),
    resolve: {
      type: 'object', additionalProperties: false, default: {},
      description: 'Reverse lookups of remote addresses (GET /api/connections?resolve=1).',
      properties: {
        timeout: duration('100ms', '10s', '1s', 'One lookup\'s deadline.'),
        concurrency: { type: 'integer', minimum: 1, maximum: 64, default: 8, description: 'Lookups in flight at once.' },
        per_request: { type: 'integer', minimum: 1, maximum: 500, default: 64, description: 'Addresses one request looks up at most.' },
        ttl: duration('1s', '1d', '10m', 'How long an answer (a name, or none) is kept.'),
      },
    },
    captures: {
      type: 'object', additionalProperties: false, default: {},
      description: 'Packet captures (tcpdump through the privileged path), never started but by a user.',
      properties: {
        max_packets: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 10_000, description: 'The most packets one capture may ask for.' },
        max_seconds: { type: 'integer', minimum: 1, maximum: 3600, default: 600, description: 'The longest wall-clock limit one capture may ask for.' },
        max_bytes: { type: 'integer', minimum: 65_536, maximum: 4_294_967_296, default: 67_108_864, description: 'A capture file ends when it reaches this size; the in-place view reads this much at most.' },
        keep: { type: 'integer', minimum: 1, maximum: 1000, default: 50, description: 'Captures kept at most; a new one is refused until one is deleted.' },
      },
    },
  },
};

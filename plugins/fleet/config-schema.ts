import type { JsonSchema } from '@vigil/plugin-sdk';
import { MAX_PEERS } from './types.js';

const duration: JsonSchema = { type: ['string', 'integer'], format: 'duration', minimum: 0 };

export const PEER_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

export const peerName: JsonSchema = {
  type: 'string', pattern: PEER_NAME_PATTERN, description: 'Shown in the grid: letters, digits, ".", "_" and "-"; at most 64.',
};
export const peerUrl: JsonSchema = {
  type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048,
  description: 'The base URL of the other Vigil\'s control plane, e.g. http://10.0.0.5:9095 (its /api/fleet/peer is read).',
};
export const peerToken: JsonSchema = {
  type: 'string', minLength: 16, maxLength: 256, pattern: '^[\\x21-\\x7e]+$',
  description: 'A read token created on that instance (Host → Fleet → Read tokens). A secret: write ${ENV_VAR} in the file.',
};

/** One machine of `fleet.peers`, and the body that adds one through the API. */
export const peerSchema: JsonSchema = {
  type: 'object', title: 'FleetPeerInput', additionalProperties: false, required: ['name', 'url', 'token'],
  properties: { name: peerName, url: peerUrl, token: peerToken },
};

/** The `fleet:` section. */
export const fleetConfigSchema: JsonSchema = {
  type: 'object',
  description: 'The fleet view: polls other Vigil instances\' host overview with read tokens, and serves this one\'s to them.',
  properties: {
    interval: { ...duration, default: '15s', description: 'How often every machine is polled (at least 2s).' },
    timeout: { ...duration, default: '5s', description: 'One poll\'s deadline, connection and answer together; a machine that misses it is down.' },
    max_response_bytes: { type: 'integer', minimum: 1024, maximum: 1048576, default: 65536, description: 'A peer\'s answer larger than this is refused (an overview is a few hundred bytes).' },
    key_file: { type: 'string', minLength: 1, description: 'The key the tokens entered in the dashboard are encrypted with (created with mode 0600); relative to the config file. Default <data_dir>/plugins/fleet/secrets.key.' },
    peers: { type: 'array', default: [], maxItems: MAX_PEERS, items: peerSchema, description: 'Machines owned by this file (read-only in the dashboard).' },
  },
};

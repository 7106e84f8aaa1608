import { defineErrorCodes, httpError, type HttpError } from '@vigil/plugin-sdk';

/** Codes of the fleet plugin: its read API, its peers and its read tokens. A code answered over HTTP has its status here. */
export const FleetErrors = defineErrorCodes('FLEET', {
  READ_TOKEN: {
    status: 401,
    meaning: 'The X-Fleet-Token header is not a read token of this instance (wrong, revoked, or from another instance).',
    action: 'On the instance being read, create a read token (Host → Fleet → Read tokens) and give it to the instance that polls.',
  },
  UNKNOWN_PEER: {
    status: 404,
    meaning: 'No machine of the fleet has this name.',
    action: 'GET /api/fleetconfig lists the machines by name.',
  },
  PEER_EXISTS: {
    status: 409,
    meaning: 'A machine with this name is in the fleet already.',
    action: 'Choose another name, or remove the machine first.',
  },
  FROM_CONFIG: {
    status: 409,
    meaning: 'The machine is declared in the config file (`fleet.peers`), which owns it: the API cannot change or remove it.',
    action: 'Edit `fleet.peers` in the config file and restart, or add the machine in the dashboard instead.',
  },
  TOO_MANY_PEERS: {
    status: 409,
    meaning: 'The fleet holds at most 24 machines (config file and dashboard together).',
    action: 'Remove a machine before adding another.',
  },
  PEER: {
    status: 400,
    meaning: 'A machine\'s settings cannot work: a URL with credentials, a query or a fragment, a name used twice in one list, a new machine without its token.',
    action: 'Give the base URL of the other Vigil (http://host:9095), a name, and a read token created on that instance.',
  },
  UNKNOWN_TOKEN: {
    status: 404,
    meaning: 'No read token has this id (it was revoked, or never existed).',
    action: 'GET /api/fleet/tokens lists the read tokens by id.',
  },
  TOO_MANY_TOKENS: {
    status: 409,
    meaning: 'An instance holds at most 100 read tokens.',
    action: 'Revoke the tokens no longer used.',
  },
  SECRET_KEY: {
    meaning: 'The key that encrypts the peers\' tokens cannot be used: the key file is unreadable, of the wrong size, readable by others, or not the key the tokens were encrypted with.',
    action: 'Restore the key file (mode 0600) that was used, or point fleet.key_file at it; every process sharing the store needs the same key. Without it, enter the peers\' tokens again.',
  },
  PEER_ANSWER: {
    meaning: 'A peer answered, but not with a host overview: an error status, a redirect, a body over fleet.max_response_bytes, or JSON that does not match the overview\'s schema.',
    action: 'Check the peer\'s URL (its control plane, not its gateway) and that it runs a Vigil with the fleet plugin; the machine\'s error says what came back.',
  },
});

export const unknownPeer = (name: string): HttpError => httpError(FleetErrors.UNKNOWN_PEER, `no machine of the fleet is named ${JSON.stringify(name)}`);
export const badPeer = (message: string): HttpError => httpError(FleetErrors.PEER, message);

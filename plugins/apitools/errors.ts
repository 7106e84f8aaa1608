import { defineErrorCodes } from '@vigil/plugin-sdk';

/**
 * Codes of the API tools (`vigil replay`, `vigil mock`). The replay's is printed on stderr with exit 2; the mock's
 * reach its clients as the `code` of the JSON error body (in the spec's error shape when it declares one for the status).
 */
export const ApitoolsErrors = defineErrorCodes('APITOOLS', {
  REPLAY_LIVE_TARGET: {
    meaning: '`vigil replay --target` reaches the live service: the config\'s service.upstream or the gateway itself (service.listen), '
      + 'compared by the addresses both resolve to and their port, so any spelling of the address, any name that resolves to it and '
      + 'any address of the same machine counts. Nothing was sent.',
    action: 'Point --target at a staging server; pass --force only when replaying against the live service is what you mean.',
  },
  MOCK_STORAGE_FULL: {
    meaning: 'A write to one of `vigil mock`\'s stateful collections would pass its bounds: --max-items per collection, or --max-bytes of '
      + 'items (their JSON) in all. The mock answers 507 and keeps what it holds.',
    action: 'Delete items or `POST /__vigil/reset` between test cases; raise --max-items or --max-bytes if a test needs more.',
  },
  MOCK_BODY_TOO_LARGE: {
    meaning: 'A request body sent to `vigil mock` is over --max-body bytes. The mock answers 413 without reading the rest.',
    action: 'Send a smaller body, or start the mock with a larger --max-body.',
  },
  MOCK_BODY_TOO_DEEP: {
    meaning: 'A JSON request body sent to `vigil mock` nests more than 128 objects and arrays one inside another. The mock answers 400 '
      + 'and stores nothing: its handlers recurse, and so deep a document would overflow the stack on every later read.',
    action: 'Send a flatter document; no real API payload needs so deep a nesting.',
  },
});

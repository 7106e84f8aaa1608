import { definePlugin } from '@vigil/plugin-sdk';
import { apiClientConfigSchema, type ApiClientConfig } from './config-schema.js';

/**
 * The API client: collections, environments with `{{variables}}` (secret ones encrypted, never sent back), history
 * and flows that carry values from one response into the next request. Requests are sent by the server under a
 * timeout and a response size cap, each one audited. Imports Postman v2.1, Insomnia v4, OpenAPI 3 and curl; exports
 * curl and raw HTTP.
 */
export default definePlugin<ApiClientConfig>({
  name: 'apiclient',
  version: '0.1.0',
  configSchema: apiClientConfigSchema,
  needs: ['http', 'store', 'workers'],
  async setup(ctx, config) {
    const { startApiClient } = await import('./start-apiclient.js');
    return startApiClient(ctx, config);
  },
});

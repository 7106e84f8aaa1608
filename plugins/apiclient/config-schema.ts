import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `apiclient:` section. `apiclient: {}` turns the API client on with the defaults below. */
export interface ApiClientConfig {
  /** How long a request may take, connection to last byte, when it names no timeout. */
  timeout: string | number;
  /** The longest timeout a request may ask for. */
  max_timeout: string | number;
  /** Bytes of a response body read at most; the connection is closed there and the answer says it was cut. */
  max_response_bytes: number;
  /** Bytes of the body sent to the browser at most (the rest is counted, not shown). */
  display_bytes: number;
  /** The key secret variables are encrypted with; default `<data_dir>/plugins/apiclient/secrets.key`. */
  key_file?: string;
}

export const apiClientConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'The API client (Host > API client): collections, environments, flows and history; requests sent by the server.',
  properties: {
    timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '100ms', formatMaximum: '10m', default: '30s',
      description: 'How long a request may take (connect to last byte) when it names no timeout; the connection is closed then.',
    },
    max_timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '100ms', formatMaximum: '1h', default: '5m',
      description: 'The longest timeout a request may ask for.',
    },
    max_response_bytes: {
      type: 'integer', minimum: 1024, maximum: 256 * 1024 * 1024, default: 10 * 1024 * 1024,
      description: 'Bytes of a response body read at most (after decompression); reading stops there and the answer says where it was cut.',
    },
    display_bytes: {
      type: 'integer', minimum: 1024, maximum: 16 * 1024 * 1024, default: 1024 * 1024,
      description: 'Bytes of a response body sent to the browser at most; larger bodies are shown truncated, with a note.',
    },
    key_file: { type: 'string', minLength: 1, description: 'The key secret variables are encrypted with (created with mode 0600); relative to the config file. Default <data_dir>/plugins/apiclient/secrets.key.' },
  },
};

import type { JsonSchema } from '@vigil/plugin-sdk';

/** The body of every error answer (request-pipeline.ts `respondError`), declared once for every operation. */
export const ERROR_BODY: JsonSchema = {
  title: 'ErrorAnswer',
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable code, e.g. VIGIL_ERR_HTTP_UNAUTHORIZED (docs/errors.md).' },
        message: { type: 'string', description: 'What went wrong and what to do; generic for 5xx, whose details are in the server log.' },
        path: { type: 'string', description: 'Key path of the invalid value, for validation errors (body.rules[2].name).' },
      },
    },
  },
};

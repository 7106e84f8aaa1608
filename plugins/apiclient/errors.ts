import { defineErrorCodes, httpError, type HttpError } from '@vigil/plugin-sdk';

/** Codes of the API client (plugin `apiclient`). */
export const ApiClientErrors = defineErrorCodes('APICLIENT', {
  BAD_REQUEST: {
    status: 400,
    meaning: 'The request to send is not usable: the URL is not absolute http:// or https:// after its variables were filled in, a header name or value is not valid HTTP, or a variable has no value.',
    action: 'Fix what the message names; define missing variables in the active environment.',
  },
  TIMEOUT: {
    status: 504,
    meaning: 'The target did not answer within the request\'s timeout (`apiclient.timeout`, at most `apiclient.max_timeout`); the connection was closed.',
    action: 'Check the target is up, or give the request a longer timeout up to `apiclient.max_timeout`.',
  },
  UNREACHABLE: {
    status: 502,
    meaning: 'The target could not be reached: its name did not resolve, the connection was refused or reset, or TLS failed.',
    action: 'Check the host and port, that the server runs, and for https that its certificate is valid.',
  },
  BUSY: {
    status: 429,
    meaning: 'As many requests as the API client sends at once (8) are in flight already; each may hold up to `apiclient.max_response_bytes` of body.',
    action: 'Wait for a send or a flow to finish, then send again.',
  },
  IMPORT: {
    status: 400,
    meaning: 'The text to import is not a Postman v2.1 collection, an Insomnia v4 export, an OpenAPI 3 document (JSON or YAML) or curl command lines, or it is one of them with a part that cannot be read.',
    action: 'Export the collection again (Postman: Collection v2.1; Insomnia: "Insomnia v4" JSON), or fix what the message names.',
  },
  NOT_FOUND: {
    status: 404,
    meaning: 'No saved environment or flow has that id.',
    action: 'List what is saved with `GET /api/httpstore`.',
  },
  SECRET_KEY: {
    status: 500,
    meaning: 'The key secret environment variables are encrypted with is missing, unreadable, readable by others, or is not the key a value was saved with.',
    action: 'Restore `<data_dir>/plugins/apiclient/secrets.key` (mode 0600), or enter the secret variables again.',
  },
});

export const badRequest = (message: string): HttpError => httpError(ApiClientErrors.BAD_REQUEST, message);
export const badImport = (message: string): HttpError => httpError(ApiClientErrors.IMPORT, message);

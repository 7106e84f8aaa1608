import { defineErrorCodes, VigilError } from '@vigil/plugin-sdk';

/** Codes of the Express and Koa middleware (@vigil/express, @vigil/koa), thrown when the middleware is created. */
export const MiddlewareErrors = defineErrorCodes('MIDDLEWARE', {
  CONFIG: {
    meaning: 'The middleware\'s configPath names a file that cannot be read, or that `vigil validate` would refuse (the message gives file:line:column and the key path).',
    action: 'Fix the file where the message points; `vigil validate -config FILE` prints the same problems.',
  },
  OPTIONS: {
    meaning: 'An option of the middleware is missing or malformed: configPath, agentUrl (an http or https URL), the ingest token, or a bound that is not a positive number.',
    action: 'Pass the option the message names; the token may come from VIGIL_INGEST_TOKEN and the URL from VIGIL_AGENT_URL.',
  },
});

export class MiddlewareError extends VigilError {}

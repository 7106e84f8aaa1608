import { httpError, type HttpRoutes } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import { langfuseCredentials } from './langfuse/basic-auth.js';
import { PROJECT_KEY_HEADER } from './project-auth.js';
import type { LlmProject } from './types.js';

/** The scheme of the Langfuse-compatible routes: Basic `publicKey:secretKey` (the secret is the project key), or the project-key header. */
export const LANGFUSE_SCHEME = 'llm-langfuse';

/**
 * Langfuse SDKs send `Authorization: Basic base64(publicKey:secretKey)`; Vigil reads the secret key as the project
 * key and does not check the public key. `X-Service-Project-Key` works too. Wrong keys count towards the lockout.
 */
export function registerLangfuseAuth(http: HttpRoutes, lookup: (key: string) => Promise<LlmProject | null>): void {
  http.authScheme(LANGFUSE_SCHEME, {
    openapi: { type: 'http', scheme: 'basic', description: 'Langfuse SDK credentials: publicKey (any) and secretKey (the Vigil project key).' },
    async authenticate(ctx) {
      const header = ctx.headers[PROJECT_KEY_HEADER];
      const basic = langfuseCredentials(ctx.headers.authorization);
      const key = typeof header === 'string' && header !== '' ? header.trim() : basic?.projectKey;
      if (key === undefined) return null;
      const project = await lookup(key);
      if (!project) throw httpError(LlmErrors.UNKNOWN_KEY, 'the secret key (or X-Service-Project-Key) is not the key of any project');
      return { scheme: LANGFUSE_SCHEME, subject: project.id, project, publicKey: basic?.publicKey };
    },
  });
}

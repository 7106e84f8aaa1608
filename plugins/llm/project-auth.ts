import { httpError, LLM_PROJECT_KEY_AUTH, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import type { LlmProject } from './types.js';

/** The auth scheme of ingest and the public API: the project key in `X-Service-Project-Key`. */
export const PROJECT_KEY_SCHEME = LLM_PROJECT_KEY_AUTH;
export const PROJECT_KEY_HEADER = 'x-service-project-key';

/**
 * Registers the project-key scheme. A request without the header is answered 401 by the control plane; a wrong key
 * is a 401 that counts towards the control plane's lockout (a page on another site cannot set this header, so it
 * cannot spend the lockout).
 */
export function registerProjectKeyAuth(http: HttpRoutes, lookup: (key: string) => Promise<LlmProject | null>): void {
  http.authScheme(PROJECT_KEY_SCHEME, {
    openapi: { type: 'apiKey', in: 'header', name: 'X-Service-Project-Key' },
    async authenticate(ctx) {
      const key = ctx.headers[PROJECT_KEY_HEADER];
      if (typeof key !== 'string' || key === '') return null;
      const project = await lookup(key.trim());
      if (!project) throw httpError(LlmErrors.UNKNOWN_KEY, 'the X-Service-Project-Key is not the key of any project (wrong, rotated out, or its project was deleted)');
      return { scheme: PROJECT_KEY_SCHEME, subject: project.id, project };
    },
  });
}

/** The project whose key authenticated this request (routes with `auth: 'llm-project-key'`). */
export function projectOf(ctx: RouteContext): LlmProject {
  const project = ctx.state.auth?.project as LlmProject | undefined;
  if (!project) throw new Error('projectOf: the route does not use the llm-project-key auth scheme');
  return project;
}

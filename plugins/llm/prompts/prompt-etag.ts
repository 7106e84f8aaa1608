import { createHash } from 'node:crypto';
import type { RouteContext } from '@vigil/plugin-sdk';

/**
 * A strong ETag of an answer's JSON: a moved label, a new newest version (which takes `latest`) or any other change
 * of what the client would get changes it.
 */
export function etagOf(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/** True when the request's If-None-Match names `etag` (a list, `*`, or the weak form W/"…" all count, as RFC 9110 says for GET). */
export function notModified(ctx: RouteContext, etag: string): boolean {
  const header = ctx.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Answers `body` with its ETag and `Cache-Control: no-cache` (a client may keep it, but asks again each time), or
 * 304 with no body when the client has it already.
 */
export function withEtag(ctx: RouteContext, body: unknown): unknown {
  const etag = etagOf(JSON.stringify(body));
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', 'private, no-cache');
  if (notModified(ctx, etag)) {
    ctx.status = 304;
    ctx.body = '';
    return undefined;
  }
  return body;
}

import type { RouteContext } from '@vigil/plugin-sdk';

/**
 * Who a label move or a create is recorded as: a signed-in person's email or name when the principal carries one, the
 * dashboard (token or session), the Langfuse SDK with its public key (free text the sender chose, cut to 64
 * characters), or the project key.
 */
export function actorOf(ctx: RouteContext): string {
  const p = ctx.state.auth;
  if (!p) return 'unknown';
  const user = (typeof p.user === 'object' && p.user !== null ? p.user : p) as Record<string, unknown>;
  for (const key of ['email', 'name']) if (typeof user[key] === 'string' && user[key] !== '') return String(user[key]).slice(0, 256);
  if (p.scheme === 'dashboard') return p.subject === 'token' ? 'dashboard (token)' : 'dashboard (session)';
  if (typeof p.publicKey === 'string') return `langfuse sdk (${p.publicKey.slice(0, 64)})`;
  return 'project key';
}

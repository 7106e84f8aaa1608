import { AUDIT_PAGE_LIMIT, type AuditLog } from '../auth/audit-log.js';
import { CONTROL_PLANE_OWNER, type RouteTable } from './route-table.js';

/** `GET /api/audit`: the audit log, newest first, for owners and instance-wide admins. */
export function registerAuditRoutes(table: RouteTable, audit: AuditLog): void {
  table.addRoute(CONTROL_PLANE_OWNER, {
    method: 'GET',
    path: '/api/audit',
    role: 'admin',
    summary: 'The audit log: sign-ins and every change made through the dashboard API',
    description: `Newest first, ${AUDIT_PAGE_LIMIT} entries a page at most; pass \`next\` back as \`before\` for the next page. Kept 180 days.`,
    tags: ['auth'],
    query: {
      type: 'object', additionalProperties: false,
      properties: {
        before: { type: 'string', pattern: '^[0-9a-z]{25}$', description: 'The `next` of the previous page.' },
        limit: { type: 'integer', minimum: 1, maximum: AUDIT_PAGE_LIMIT, default: 50 },
        actor: { type: 'string', maxLength: 254, description: 'Only this actor (an email, or "dashboard token").' },
        project: { type: 'string', maxLength: 128, description: 'Only changes in this LLM project.' },
        action: { type: 'string', minLength: 1, maxLength: 128, description: 'Only actions that start with this: `host ` for host actions (packages, firewall, capture, signals).' },
      },
    },
    response: {
      title: 'AuditPage', type: 'object', additionalProperties: false, required: ['entries', 'next'],
      properties: {
        entries: {
          type: 'array',
          items: {
            title: 'AuditEntry', type: 'object', additionalProperties: false,
            required: ['id', 'at', 'actor_id', 'actor', 'action', 'target', 'project', 'status', 'address', 'detail'],
            properties: {
              id: { type: 'string' },
              at: { type: 'integer', description: 'Epoch ms.' },
              actor_id: { type: ['string', 'null'], description: 'The user\'s id; null for the dashboard token and refused sign-ins.' },
              actor: { type: 'string' },
              action: { type: 'string', description: '`sign-in`, `sign-in refused`, `sign-out`, or the route: `PATCH /api/users/:id`.' },
              target: { type: 'string', description: 'The path the request named, or how a sign-in was made.' },
              project: { type: ['string', 'null'] },
              status: { type: 'integer', description: 'The HTTP status the request was answered with.' },
              address: { type: ['string', 'null'] },
              detail: { type: ['string', 'null'], description: 'Why a sign-in was refused.' },
            },
          },
        },
        next: { type: ['string', 'null'], description: 'Pass as `before` for older entries; null on the last page.' },
      },
    },
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const q = ctx.query as { before?: string; limit: number; actor?: string; project?: string; action?: string };
      const { entries, next } = await audit.page(q);
      return {
        entries: entries.map((e) => ({
          id: e.id, at: e.at, actor_id: e.actorId, actor: e.actor, action: e.action, target: e.target, project: e.project,
          status: e.status, address: e.address, detail: e.detail,
        })),
        next,
      };
    },
  });
}

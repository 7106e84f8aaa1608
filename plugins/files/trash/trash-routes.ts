// The home trash (freedesktop trash spec): list, move to it, restore, delete for good. Moving to the trash and
// deleting are changes: the dashboard asks first, and each is in the audit log with the path it touched.
import { closedObject, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import type { AllowedRoots } from '../files/allowed-path.js';
import { HomeTrash, TRASH_LIST_MAX } from './home-trash.js';

const TAGS = ['host'];
const ROLE = 'owner' as const;

const itemSchema = closedObject({
  name: { type: 'string' }, path: { type: 'string' }, deleted_at: { type: ['string', 'null'] }, bytes: { type: 'integer', minimum: 0 }, dir: { type: 'boolean' },
}, { title: 'TrashItem' });
const listSchema = closedObject({
  dir: { type: 'string' }, items: { type: 'array', items: itemSchema, maxItems: TRASH_LIST_MAX }, total: { type: 'integer', minimum: 0 },
}, { title: 'TrashList' });
const pathBody: JsonSchema = closedObject({ path: { type: 'string', maxLength: 4096 } }, { title: 'TrashRequest' });
const nameBody: JsonSchema = closedObject({ name: { type: 'string', minLength: 1, maxLength: 4096 } }, { title: 'TrashRestoreRequest' });

export function registerTrashRoutes(http: HttpRoutes, d: { roots: AllowedRoots; trashDir: string }): void {
  const trash = new HomeTrash(d.trashDir);

  http.route({
    method: 'GET', path: '/api/trash', tags: TAGS, role: ROLE,
    summary: 'The items of the home trash, newest first',
    description: `$XDG_DATA_HOME/Trash (~/.local/share/Trash), shared with file managers; at most ${TRASH_LIST_MAX} items.`,
    response: listSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return { dir: trash.dir, ...(await trash.list()) };
    },
  });

  http.route({
    method: 'POST', path: '/api/trash', tags: TAGS, role: ROLE,
    summary: 'Move a file or folder to the trash (perch\'s trash); it can be restored',
    description: 'Only under files.roots, and only on the trash\'s filesystem (409 otherwise: a move across filesystems is a copy).',
    body: pathBody,
    response: itemSchema,
    async handler(ctx) {
      const path = await d.roots.existing((ctx.request.body as { path: string }).path);
      const item = await trash.trash(path);
      await http.audit({ principal: ctx.state.auth, action: 'files trash', target: path, status: 200, address: ctx.ip, detail: `in the trash as ${item.name}` });
      return item;
    },
  });

  http.route({
    method: 'POST', path: '/api/trash/restore', tags: TAGS, role: ROLE,
    summary: 'Put an item of the trash back where it was',
    description: 'Refused (409) when something exists at that path now, or (400) when the place is outside files.roots.',
    body: nameBody,
    response: itemSchema,
    async handler(ctx) {
      const item = await trash.restore((ctx.request.body as { name: string }).name, async (folder) => { await d.roots.existing(folder); });
      await http.audit({ principal: ctx.state.auth, action: 'files restore', target: item.path, status: 200, address: ctx.ip, detail: `from the trash item ${item.name}` });
      return item;
    },
  });

  http.route({
    method: 'POST', path: '/api/trash/delete', tags: TAGS, role: ROLE,
    summary: 'Delete an item of the trash for good',
    body: nameBody,
    response: itemSchema,
    async handler(ctx) {
      const item = await trash.remove((ctx.request.body as { name: string }).name);
      await http.audit({ principal: ctx.state.auth, action: 'files delete', target: item.path, status: 200, address: ctx.ip, detail: `the trash item ${item.name}, for good` });
      return item;
    },
  });
}

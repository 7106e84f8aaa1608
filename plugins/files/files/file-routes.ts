// The file tools: a text preview and editor (an atomic save under a size limit) and an image preview. Every path is
// resolved (`..`, symbolic links) and checked against files.roots before anything is opened.
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { BINARY_BODY, closedObject, httpError, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { FilesErrors } from '../errors.js';
import { badPath, type AllowedRoots } from './allowed-path.js';
import { writeAtomically } from './atomic-write.js';

const TAGS = ['host'];
const ROLE = 'owner' as const;
/** Largest image the preview sends, bytes. */
export const IMAGE_LIMIT = 20 * 1024 * 1024;

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.bmp': 'image/bmp', '.ico': 'image/x-icon', '.avif': 'image/avif', '.svg': 'image/svg+xml',
};

const fileSchema = closedObject({
  path: { type: 'string' }, bytes: { type: 'integer', minimum: 0 }, mtime_ms: { type: 'number' },
  text: { type: 'string', description: 'the file as UTF-8 text' },
  limit: { type: 'integer', description: 'the largest file the editor saves, bytes (files.edit_limit)' },
}, { title: 'TextFile', description: 'A text file for the preview and the editor; pass mtime_ms back when saving.' });

const writeBody: JsonSchema = closedObject({
  path: { type: 'string', maxLength: 4096 },
  text: { type: 'string' },
  expected_mtime_ms: { type: 'number', description: 'the mtime_ms the editor read: the save is refused (409) when the file changed since' },
  create: { type: 'boolean', description: 'make the file when it does not exist (default false)' },
}, { title: 'TextFileWrite', optional: ['expected_mtime_ms', 'create'] });

export interface FileRouteDeps { roots: AllowedRoots; editLimit: number }

const decoder = new TextDecoder('utf-8', { fatal: true });

export function registerFileRoutes(http: HttpRoutes, d: FileRouteDeps): void {
  const regularFile = async (raw: unknown) => {
    const path = await d.roots.existing(raw);
    const st = await stat(path);
    if (!st.isFile()) throw badPath(`${JSON.stringify(path)} is not a regular file`);
    return { path, st };
  };

  http.route({
    method: 'GET', path: '/api/readfile', tags: TAGS, role: ROLE,
    summary: 'A text file for the preview and the editor (perch\'s readfile)',
    description: 'Only under files.roots; at most files.edit_limit bytes (413 past it); text only (415 for a file with NUL bytes or invalid UTF-8).',
    query: { type: 'object', additionalProperties: false, required: ['path'], properties: { path: { type: 'string', maxLength: 4096 } } },
    response: fileSchema,
    async handler(ctx) {
      const { path, st } = await regularFile(ctx.query.path);
      if (st.size > d.editLimit) throw httpError(FilesErrors.TOO_LARGE, `${JSON.stringify(path)} is ${st.size} bytes; the editor opens files up to ${d.editLimit} bytes (files.edit_limit)`);
      const handle = await open(path, 'r');
      let bytes: Buffer;
      try {
        // Read no more than the limit even if the file grew since the stat.
        const buffer = Buffer.alloc(d.editLimit + 1);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        if (bytesRead > d.editLimit) throw httpError(FilesErrors.TOO_LARGE, `${JSON.stringify(path)} grew past ${d.editLimit} bytes while it was read`);
        bytes = buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
      let text: string;
      try {
        if (bytes.includes(0)) throw new Error('NUL byte');
        text = decoder.decode(bytes);
      } catch {
        throw httpError(FilesErrors.NOT_TEXT, `${JSON.stringify(path)} is not UTF-8 text`);
      }
      ctx.set('Cache-Control', 'no-store');
      return { path, bytes: bytes.length, mtime_ms: st.mtimeMs, text, limit: d.editLimit };
    },
  });

  http.route({
    method: 'POST', path: '/api/writefile', tags: TAGS, role: ROLE,
    summary: 'Save a text file atomically (perch\'s writefile): a reader sees the old file or the new one, never a part',
    description: 'Written to a temporary file in the same folder, flushed, and renamed over the old one (its mode kept). ' +
      'Refused when the file changed since the editor read it (expected_mtime_ms), past files.edit_limit, or outside files.roots.',
    body: writeBody,
    bodyLimit: 17 * 1024 * 1024,
    response: fileSchema,
    async handler(ctx) {
      const body = ctx.request.body as { path: string; text: string; expected_mtime_ms?: number; create?: boolean };
      const data = Buffer.from(body.text, 'utf8');
      if (data.length > d.editLimit) throw httpError(FilesErrors.TOO_LARGE, `the text is ${data.length} bytes; the editor saves files up to ${d.editLimit} bytes (files.edit_limit)`);
      const path = await d.roots.target(body.path);
      const before = await stat(path).catch(() => undefined);
      if (before && !before.isFile()) throw badPath(`${JSON.stringify(path)} is not a regular file`);
      if (!before && !body.create) throw badPath(`${JSON.stringify(path)} does not exist (send create: true to make it)`);
      if (before && body.expected_mtime_ms !== undefined && Math.abs(before.mtimeMs - body.expected_mtime_ms) > 0.001) {
        throw httpError(FilesErrors.CHANGED, `${JSON.stringify(path)} changed on disk since it was read (${new Date(before.mtimeMs).toISOString()})`);
      }
      await writeAtomically(path, data);
      const after = await stat(path);
      await http.audit({ principal: ctx.state.auth, action: 'files save', target: path, status: 200, address: ctx.ip, detail: `${after.size} bytes${before ? '' : ', a new file'}` });
      return { path, bytes: after.size, mtime_ms: after.mtimeMs, text: body.text, limit: d.editLimit };
    },
  });

  http.route({
    method: 'GET', path: '/api/raw', tags: TAGS, role: ROLE,
    summary: 'An image file\'s bytes, for the preview (perch\'s raw)',
    description: `Images only (png, jpeg, gif, webp, bmp, ico, avif, svg), at most ${IMAGE_LIMIT / 1024 / 1024} MiB, under files.roots. ` +
      'Sent with a sandboxing Content-Security-Policy so an SVG opened on its own runs no script.',
    query: { type: 'object', additionalProperties: false, required: ['path'], properties: { path: { type: 'string', maxLength: 4096 } } },
    response: BINARY_BODY,
    async handler(ctx) {
      const { path, st } = await regularFile(ctx.query.path);
      const type = IMAGE_TYPES[extname(path).toLowerCase()];
      if (!type) throw httpError(FilesErrors.NOT_TEXT, `${JSON.stringify(path)} is not an image the preview shows (png, jpeg, gif, webp, bmp, ico, avif, svg)`);
      if (st.size > IMAGE_LIMIT) throw httpError(FilesErrors.TOO_LARGE, `${JSON.stringify(path)} is ${st.size} bytes; the preview shows images up to ${IMAGE_LIMIT} bytes`);
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(st.size);
        const { bytesRead } = await handle.read(buffer, 0, st.size, 0);
        ctx.type = type;
        ctx.set('Cache-Control', 'no-store');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  });
}

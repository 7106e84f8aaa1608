// Perch's SSH key endpoints: GET /api/sshkeys (keys of ~/.ssh and authorized_keys) and POST /api/sshkeygen (a new
// ed25519 pair). Nothing of a private key leaves the server: the answer holds its name, whether a passphrase
// protects it, and the public half's facts.
import { basename } from 'node:path';
import type { HttpRoutes, PluginAuditEntry } from '@vigil/plugin-sdk';
import { sshKeygenBody, sshKeygenSchema, sshKeysSchema } from '../response-schemas.js';
import { generateKey } from './generate-key.js';
import { readSshFolder } from './key-folder.js';

export interface SshRouteDeps {
  home: string;
  audit(entry: PluginAuditEntry): Promise<void>;
}

export function registerSshRoutes(http: HttpRoutes, d: SshRouteDeps): void {
  http.route({
    method: 'GET', path: '/api/sshkeys', tags: ['host'],
    summary: 'The SSH keys of ~/.ssh (type, bits, SHA256 fingerprint as ssh-keygen -lf prints it, passphrase or not) and authorized_keys with options and comments',
    description: 'Private keys are known by their header only and never sent. Bounds: the first 200 entries of ~/.ssh, 64 KiB of each key file, 1 MiB of authorized_keys.',
    response: sshKeysSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return readSshFolder(d.home);
    },
  });

  http.route({
    method: 'POST', path: '/api/sshkeygen', tags: ['host'],
    summary: 'Generate an ed25519 key pair in ~/.ssh with ssh-keygen, with an optional passphrase; never overwrites a key',
    description: 'The passphrase goes to ssh-keygen only (never logged, stored or answered). 30 s limit. Answers the new key\'s public facts.',
    body: sshKeygenBody, response: sshKeygenSchema,
    async handler(ctx) {
      const body = ctx.request.body as { name: string; comment?: string; passphrase?: string };
      const file = await generateKey(d.home, { name: body.name, comment: body.comment ?? '', passphrase: body.passphrase ?? '' });
      const folder = await readSshFolder(d.home);
      const key = folder.keys.find((k) => k.name === basename(file));
      await d.audit({ principal: ctx.state.auth, action: 'host ssh-keygen', target: file, status: 200, address: ctx.ip || null, detail: `ed25519${body.passphrase ? ', with a passphrase' : ', no passphrase'}` });
      if (!key) throw new Error(`ssh-keygen wrote ${file}, but it is not in the listing of ${folder.folder}`);
      return { key, folder: folder.folder };
    },
  });
}

// A release source as the self-updater meets it, all real and all local: a bare git repository as the upstream, a
// publisher's clone that commits, tags and pushes releases, SHA256SUMS of each tag's `git archive` signed with an
// Ed25519 key made here (as `npm run release` signs them), and the release feed on a loopback HTTP server.
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const GIT_ENV = {
  ...process.env, GIT_AUTHOR_NAME: 'Release Bot', GIT_AUTHOR_EMAIL: 'release@example.test', GIT_COMMITTER_NAME: 'Release Bot',
  GIT_COMMITTER_EMAIL: 'release@example.test', GIT_CONFIG_NOSYSTEM: '1', HOME: process.env.HOME,
};

/** Runs git in `cwd`; answers its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface ReleaseFiles {
  feed: Record<string, unknown>;
  sums: Buffer;
  sig: Buffer;
  /** More files served beside the feed, by name (an npm archive). */
  assets?: Record<string, Buffer>;
}

export class ReleaseUpstream {
  readonly bare: string;
  readonly publisher: string;
  readonly keyFile: string;
  private readonly privateKey: KeyObject;
  private server?: Server;
  /** What the feed serves now; tests replace parts of it (a bad signature). */
  current?: ReleaseFiles;
  /** Requests the feed server saw, as `METHOD path`. */
  readonly seen: string[] = [];

  constructor(readonly dir: string, files: Record<string, string> = { 'package.json': '{ "name": "vigil", "version": "0.1.0" }\n', 'README.md': 'v1\n' }) {
    this.bare = join(dir, 'upstream.git');
    this.publisher = join(dir, 'publisher');
    git(dir, 'init', '--quiet', '--bare', '-b', 'main', this.bare);
    git(dir, 'clone', '--quiet', this.bare, this.publisher);
    git(this.publisher, 'checkout', '--quiet', '-b', 'main');
    for (const [name, text] of Object.entries(files)) this.write(name, text);
    this.commit('release 0.1.0', 'v0.1.0');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.privateKey = privateKey;
    this.keyFile = join(dir, 'release.pub.pem');
    writeFileSync(this.keyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  }

  write(name: string, text: string): void {
    mkdirSync(join(this.publisher, name, '..'), { recursive: true });
    writeFileSync(join(this.publisher, name), text);
  }

  /** Commits what was written, tags it and pushes both. Answers the commit. */
  commit(message: string, tag?: string): string {
    git(this.publisher, 'add', '-A');
    git(this.publisher, 'commit', '--quiet', '-m', message);
    if (tag) git(this.publisher, 'tag', tag);
    git(this.publisher, 'push', '--quiet', '--tags', 'origin', 'main');
    return git(this.publisher, 'rev-parse', 'HEAD');
  }

  /** Clones the upstream into `path` (a checkout on main that tracks origin/main). */
  clone(path: string): string {
    git(this.dir, 'clone', '--quiet', '-b', 'main', this.bare, path);
    return path;
  }

  /** Publishes `version` (already committed and tagged `v<version>`): SHA256SUMS of its git archive, signed. */
  publish(version: string, notes = `Release ${version}`, signWith: KeyObject = this.privateKey): ReleaseFiles {
    const tar = execFileSync('git', ['archive', '--format=tar', `--prefix=vigil-${version}/`, `v${version}`], { cwd: this.publisher, maxBuffer: 64 * 1024 * 1024 });
    const sums = Buffer.from(`${'0'.repeat(64)}  vigil-${version}.tgz\n${createHash('sha256').update(tar).digest('hex')}  vigil-${version}.src.tar\n`);
    this.current = {
      feed: { version, tag: `v${version}`, notes, published_at: '2026-12-01T10:00:00Z', sums_url: 'SHA256SUMS', signature_url: 'SHA256SUMS.sig' },
      sums, sig: sign(null, sums, signWith),
    };
    return this.current;
  }

  /** Publishes an npm release: `archive` served as `vigil-<version>.tgz`, listed in SHA256SUMS and signed. */
  publishArchive(version: string, archive: Buffer, signWith: KeyObject = this.privateKey): ReleaseFiles {
    const name = `vigil-${version}.tgz`;
    const sums = Buffer.from(`${createHash('sha256').update(archive).digest('hex')}  ${name}\n`);
    this.current = {
      feed: { version, notes: `Release ${version}`, archive_url: name, sums_url: 'SHA256SUMS', signature_url: 'SHA256SUMS.sig' },
      sums, sig: sign(null, sums, signWith), assets: { [`/${name}`]: archive },
    };
    return this.current;
  }

  /** The release key's signature of `data` (to sign a SHA256SUMS a test made up). */
  signed(data: Buffer): Buffer {
    return sign(null, data, this.privateKey);
  }

  /** Serves the feed at `<url>/latest.json`, SHA256SUMS and SHA256SUMS.sig beside it. */
  async serve(): Promise<string> {
    this.server = createServer((req, res) => {
      this.seen.push(`${req.method} ${req.url}`);
      const r = this.current;
      const body = !r ? undefined : req.url === '/latest.json' ? JSON.stringify(r.feed) : req.url === '/SHA256SUMS' ? r.sums : req.url === '/SHA256SUMS.sig' ? r.sig : r.assets?.[req.url ?? ''];
      if (body === undefined) { res.writeHead(404).end('not found'); return; }
      res.writeHead(200, { 'content-type': req.url === '/latest.json' ? 'application/json' : 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

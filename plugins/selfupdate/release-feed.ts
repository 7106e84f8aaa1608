// The release feed: one JSON document that names the newest release (docs/releases.md, "The release feed"), in
// Vigil's own shape or as GitHub's `GET /repos/{owner}/{repo}/releases/latest` answers it.
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { SelfUpdateErrors } from './errors.js';
import { httpError } from '@vigil/plugin-sdk';

/** Bytes of the feed document read at most. */
export const FEED_MAX_BYTES = 1024 * 1024;
/** Bytes of a release file (the npm archive) downloaded at most; SHA256SUMS and its signature are far smaller. */
export const ASSET_MAX_BYTES = 256 * 1024 * 1024;
/** Characters of release notes kept. */
const NOTES_CHARS = 64 * 1024;

export interface Release {
  version: string;
  tag: string;
  notes: string;
  published_at: string | null;
  /** The npm archive (`vigil-X.tgz`), SHA256SUMS and SHA256SUMS.sig, as absolute URLs; null where the feed has none. */
  archive_url: string | null;
  sums_url: string | null;
  signature_url: string | null;
}

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const TAG = /^[0-9A-Za-z][0-9A-Za-z._/-]{0,127}$/;

const feedError = (url: string, why: string) => httpError(SelfUpdateErrors.FEED, `release feed ${url}: ${why}`);

/** Reads a response body up to `max` bytes; past it, the request is cancelled and this throws. */
async function readCapped(res: Response, max: number, url: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) { await res.body?.cancel(); throw feedError(url, `${declared} bytes, over the cap of ${max}`); }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of res.body ?? []) {
    bytes += chunk.length;
    if (bytes > max) throw feedError(url, `more than the cap of ${max} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

async function request(url: string, timeoutMs: number, accept: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow', headers: { accept, 'user-agent': 'vigil-selfupdate' } });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    throw feedError(url, e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message));
  }
  if (!res.ok) { await res.body?.cancel(); throw feedError(url, `answered ${res.status}`); }
  return res;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The feed's document as a Release, or a FEED error that says which field is wrong. */
export function parseRelease(doc: unknown, url: string): Release {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw feedError(url, 'is not a JSON object');
  const d = doc as Record<string, unknown>;
  const abs = (v: unknown): string | null => {
    const s = str(v);
    if (!s) return null;
    try { return new URL(s, url).href; } catch { throw feedError(url, `${JSON.stringify(s)} is not a URL`); }
  };
  let release: Release;
  if ('tag_name' in d) {
    // GitHub's shape: the files are `assets` by name.
    const assets = Array.isArray(d.assets) ? d.assets as Record<string, unknown>[] : [];
    const asset = (match: (name: string) => boolean) => abs(assets.find((a) => match(String(a.name ?? '')))?.browser_download_url);
    const tag = str(d.tag_name) ?? '';
    release = {
      version: tag.replace(/^v/, ''), tag, notes: str(d.body) ?? '', published_at: str(d.published_at) ?? null,
      archive_url: asset((n) => /^vigil-.*\.tgz$/.test(n)), sums_url: asset((n) => n === 'SHA256SUMS'), signature_url: asset((n) => n === 'SHA256SUMS.sig'),
    };
  } else {
    const version = str(d.version) ?? '';
    release = {
      version, tag: str(d.tag) ?? `v${version}`, notes: str(d.notes) ?? '', published_at: str(d.published_at) ?? null,
      archive_url: abs(d.archive_url), sums_url: abs(d.sums_url), signature_url: abs(d.signature_url),
    };
  }
  if (!VERSION.test(release.version)) throw feedError(url, `the version ${JSON.stringify(release.version)} is not semver (x.y.z)`);
  if (!TAG.test(release.tag) || release.tag.includes('..')) throw feedError(url, `the tag ${JSON.stringify(release.tag)} is not a tag name`);
  if (release.published_at !== null && Number.isNaN(Date.parse(release.published_at))) throw feedError(url, `published_at ${JSON.stringify(release.published_at)} is not a date`);
  release.notes = release.notes.slice(0, NOTES_CHARS);
  return release;
}

/** Asks the feed for the newest release: one GET, under `timeoutMs`, of at most FEED_MAX_BYTES. */
export async function fetchRelease(url: string, timeoutMs: number): Promise<Release> {
  const res = await request(url, timeoutMs, 'application/json, application/vnd.github+json');
  const body = await readCapped(res, FEED_MAX_BYTES, url);
  let doc: unknown;
  try { doc = JSON.parse(body.toString('utf8')); } catch { throw feedError(url, 'is not JSON'); }
  return parseRelease(doc, url);
}

/** Downloads one release file to `file`: under `timeoutMs`, at most `max` bytes (the partial file is removed). */
export async function download(url: string, file: string, timeoutMs: number, max = ASSET_MAX_BYTES): Promise<void> {
  const res = await request(url, timeoutMs, '*/*');
  const out = createWriteStream(file, { mode: 0o600 });
  let bytes = 0;
  try {
    for await (const chunk of res.body ?? []) {
      bytes += chunk.length;
      if (bytes > max) throw feedError(url, `more than the cap of ${max} bytes`);
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  } catch (err) {
    out.destroy();
    await unlink(file).catch(() => undefined);
    if ((err as Error).name === 'TimeoutError') throw feedError(url, `not downloaded within ${timeoutMs} ms`);
    throw err;
  }
}

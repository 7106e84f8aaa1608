import type { StorageInfo } from '@vigil/plugin-sdk';

/**
 * What the About page may show of `storage.url`: the backend and where it lives, never a user name or password
 * (a PostgreSQL URL can hold both, and its query string can hold a password too).
 */
export function storageInfo(url: string | undefined): StorageInfo {
  if (url === undefined) return { backend: 'none' };
  if (url.startsWith('sqlite:')) return { backend: 'sqlite', location: url.slice('sqlite:'.length) };
  try {
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
    return { backend: 'postgres', location: `${u.hostname || 'localhost'}:${u.port || '5432'}/${database}` };
  } catch {
    return { backend: 'postgres' };
  }
}

// The files plugin's API as the Storage and File pages read it (generated shapes, under the pages' names), and the
// one hook that follows a scan while it runs.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FilesSettings, FolderSizes, StorageScan, StorageScanRequest, TextFile, TrashItem, TrashList } from '../../data/api.gen.js';
import { deleteJson, getJson, isAbort, postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';

export type Scan = StorageScan;
export type ScanRequest = StorageScanRequest;
export type Folder = FolderSizes;
export type FolderRow = Folder['children'][number];
export type DuplicateRow = NonNullable<Scan['duplicates']>['groups'][number];
export type OldFileRow = NonNullable<Scan['old_files']>['rows'][number];
export type HitRow = NonNullable<Scan['hits']>[number];
export type { FilesSettings, TextFile, TrashItem, TrashList };

/** How often a running scan is read: its worker posts progress every 250 ms. */
const POLL_MS = 500;

export interface ScanRun {
  scan: Scan | undefined;
  error: ApiError | undefined;
  running: boolean;
  start(request: ScanRequest): void;
  cancel(): void;
}

/** Starts scans and follows the current one until it ends; a new start forgets the previous one. */
export function useScan(what: string): ScanRun {
  const [scan, setScan] = useState<Scan>();
  const [error, setError] = useState<ApiError>();
  const generation = useRef(0);
  const running = scan?.state === 'running';

  useEffect(() => {
    if (!scan || scan.state !== 'running') return undefined;
    const mine = generation.current;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getJson<Scan>(`/api/storage/scans/${scan.id}`, { signal: controller.signal, what }).then(
        (next) => { if (generation.current === mine) setScan(next); },
        (err) => { if (!isAbort(err) && generation.current === mine) setError(err as ApiError); },
      );
    }, POLL_MS);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [scan]);

  return {
    scan, error, running,
    start(request) {
      const mine = ++generation.current;
      setError(undefined);
      setScan(undefined);
      postJson<Scan>('/api/storage/scans', request, { what }).then(
        (s) => { if (generation.current === mine) setScan(s); },
        (err) => { if (generation.current === mine) setError(err as ApiError); },
      );
    },
    cancel() {
      if (!scan || scan.state !== 'running') return;
      const mine = generation.current;
      deleteJson<Scan>(`/api/storage/scans/${scan.id}`, { what: `cancelling ${what}` }).then(
        (s) => { if (generation.current === mine) setScan(s); },
        (err) => { if (generation.current === mine) setError(err as ApiError); },
      );
    },
  };
}

/** The Files page of a path: its preview and editor. */
export const filePageOf = (path: string): string => `/host/files?path=${encodeURIComponent(path)}`;

/** Where a scan starts by default: the first file root inside the scan roots (the home folder by default). */
export function defaultFolder(s: FilesSettings): string {
  const inside = (r: string) => s.scan_roots.some((root) => r === root || r.startsWith(root.endsWith('/') ? root : `${root}/`));
  return s.roots.find(inside) ?? s.scan_roots[0] ?? s.home;
}

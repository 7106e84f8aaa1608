import { stat } from 'node:fs/promises';
import { httpError } from '@vigil/plugin-sdk';
import { FilesErrors } from './errors.js';
import { badPath, type AllowedRoots } from './files/allowed-path.js';
import { pseudoMountsUnder, usageClock } from './mount-table.js';
import type { ScanLimits, ScanParams } from './scan/scan-types.js';

export interface ScanRequest {
  kind: ScanParams['kind'];
  path?: string;
  budget?: number;
  budget_ms?: number;
  min_size?: number;
  days?: number;
  q?: string;
  regex?: boolean;
  case_sensitive?: boolean;
  limit?: number;
  one_filesystem?: boolean;
}

export interface ScanSettings {
  scanRoots: AllowedRoots;
  budgetMs: number;
  maxBudgetMs: number;
  maxEntries: number;
  now(): number;
}

/** A search pattern checked before a worker starts: its length, and that it compiles (a wrong one is a 400, not a failed scan). */
export function checkPattern(q: string | undefined, regex: boolean): string {
  if (q === undefined || q.trim() === '') throw httpError(FilesErrors.PATTERN, 'the search needs a pattern (q)');
  if (q.length > 256) throw httpError(FilesErrors.PATTERN, 'the pattern is longer than 256 characters');
  if (regex) {
    try { new RegExp(q, 'u'); } catch (err) { throw httpError(FilesErrors.PATTERN, `${JSON.stringify(q)} is not a valid regular expression: ${(err as Error).message}`); }
  }
  return q;
}

/** What a request asks for, checked: the folder under a scan root, the budget within the maximum. */
export async function planScan(r: ScanRequest, s: ScanSettings): Promise<{ params: ScanParams; limits: ScanLimits; clockNote?: string }> {
  const budgetMs = Math.min(r.budget_ms ?? (r.budget !== undefined ? r.budget * 1000 : s.budgetMs), s.maxBudgetMs);
  const folder = async (raw: string | undefined): Promise<string> => {
    const path = await s.scanRoots.existing(raw ?? s.scanRoots.roots[0]);
    if (!(await stat(path)).isDirectory()) throw badPath(`${JSON.stringify(path)} is not a folder`);
    return path;
  };
  const limits = (roots: string[], oneFileSystem: boolean): Promise<ScanLimits> => pseudoMountsUnder(roots).then((skip) => ({
    budgetMs, maxEntries: s.maxEntries, maxDepth: 256, oneFileSystem, skip,
  }));
  switch (r.kind) {
    case 'sizes': {
      const root = await folder(r.path);
      return { params: { kind: 'sizes', root }, limits: await limits([root], r.one_filesystem ?? true) };
    }
    case 'duplicates': {
      const root = await folder(r.path);
      return { params: { kind: 'duplicates', root, minSize: r.min_size ?? 1, maxGroups: 1000 }, limits: await limits([root], r.one_filesystem ?? true) };
    }
    case 'old-files': {
      const root = await folder(r.path);
      const { clock, note } = await usageClock(root);
      const days = r.days ?? 180;
      return {
        params: { kind: 'old-files', root, minSize: r.min_size ?? 10 * 1024 * 1024, before: s.now() - days * 86_400_000, clock, maxResults: Math.min(r.limit ?? 200, 1000) },
        limits: await limits([root], r.one_filesystem ?? true), clockNote: note,
      };
    }
    case 'search': {
      const regex = r.regex ?? false;
      const pattern = checkPattern(r.q, regex);
      const roots = r.path !== undefined ? [await folder(r.path)] : s.scanRoots.roots;
      return {
        params: { kind: 'search', roots, pattern, regex, caseSensitive: r.case_sensitive ?? false, maxResults: Math.min(r.limit ?? 500, 5000) },
        limits: await limits(roots, r.one_filesystem ?? false),
      };
    }
  }
}

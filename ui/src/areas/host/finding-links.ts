// Where a health finding can be fixed: the server names the page (`path`) and the kind of fix (`action`); the link
// says what the page does about it. A page this build does not have (a tab that comes in a later issue) gets no link,
// rather than a link to nowhere.
import { matchPath, splitHref } from '../../shell/url-state.js';
import type { AreaPage } from '../types.js';

export interface FixLink { href: string; label: string }

const LABELS: Record<string, string> = {
  clean: 'See the disks',
  updates: 'See the updates and install them',
  services: 'Read the errors in the logs',
  memory: 'See what uses memory',
  temperature: 'See what uses the CPU',
  battery: 'See the battery',
  reboot: 'Open a terminal to restart',
  security: 'See the security overview',
  terminal: 'Open a terminal to fix it',
  ports: 'See who listens',
};

/** The link for a finding, or null when `path` is not a page of `pages` (or not a path of this origin). */
export function fixLink(action: string, path: string, pages: readonly Pick<AreaPage, 'path'>[]): FixLink | null {
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  const { path: bare } = splitHref(path);
  if (!pages.some((p) => matchPath(p.path, bare))) return null;
  return { href: path, label: LABELS[action] ?? 'Go where it can be fixed' };
}

/** The tone of a score out of 100, by perch's verdicts: 90 excellent, 75 good, 50 needs attention. */
export function scoreTone(score: number): 'success' | 'warning' | 'danger' {
  if (score >= 75) return 'success';
  if (score >= 50) return 'warning';
  return 'danger';
}

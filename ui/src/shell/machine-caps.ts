// What `/api/caps` says this machine has, for the pages listed only where a capability is present (AreaPage.cap):
// asked once after the shell starts, and only when a configured area has such a page.
import { signal } from '@preact/signals';
import type { Area } from '../areas/types.js';
import { getJson } from '../data/api.js';

/** `/api/caps`; undefined until it answers (and then every page is listed). */
export const machineCaps = signal<Readonly<Record<string, unknown>> | undefined>(undefined);

/** A capability is present when `/api/caps` says so: `true`, or a non-empty value (a package manager's name, a list). */
export function capPresent(caps: Readonly<Record<string, unknown>> | undefined, name: string): boolean {
  const v = caps?.[name];
  return v === true || (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0) || (typeof v === 'object' && v !== null && !Array.isArray(v));
}

/** Asks `/api/caps` when a configured area lists a page by capability; a failure leaves every page listed. */
export async function loadMachineCaps(areas: readonly Area[], configured: (area: Area) => boolean): Promise<void> {
  if (!areas.some((a) => configured(a) && a.pages.some((p) => p.cap !== undefined))) return;
  try {
    machineCaps.value = await getJson<Record<string, unknown>>('/api/caps', { what: 'what this machine has' });
  } catch {
    // Listed rather than hidden: the page itself says what it found.
  }
}

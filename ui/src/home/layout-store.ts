// Where the layout lives: the server (GET/POST /api/homelayout), with the browser's copy in localStorage as an
// offline cache. The page shows the cached copy at once, then the server's; a change is saved in both, and a save
// that fails (offline, server down) is kept locally and sent again with the next change or the next load.
import { signal } from '@preact/signals';
import { getJson, postJson } from '../data/api.js';
import type { StoredHomeLayout } from '../data/api.gen.js';
import { parseLayout, pruneSizes, type HomeLayout } from './layout.js';

const CACHE_KEY = 'vigil.homelayout';

/** The saved layout (null: the default), undefined until the cache or the server has answered. */
export const savedLayout = signal<HomeLayout | null | undefined>(undefined);
/** Whether the last save reached the server. */
export const saveState = signal<'saved' | 'saving' | 'offline'>('saved');

interface Cached { layout: HomeLayout | null; pending: boolean }

function readCache(): Cached | undefined {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return undefined;
    const v = JSON.parse(raw) as { layout?: unknown; pending?: unknown };
    if (v.layout === null) return { layout: null, pending: v.pending === true };
    const parsed = parseLayout(v.layout);
    return parsed.ok ? { layout: parsed.layout, pending: v.pending === true } : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(c: Cached): void {
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify(c));
  } catch {
    // Storage full or off (private mode): the server's copy is the one that counts.
  }
}

let sending: Promise<void> = Promise.resolve();
/** Counts the user's saves: a server copy read before the latest save is older than what is on screen. */
let saves = 0;

async function send(layout: HomeLayout | null): Promise<void> {
  saveState.value = 'saving';
  try {
    await postJson<StoredHomeLayout>('/api/homelayout', { layout }, { what: 'saving the home layout' });
    writeCache({ layout, pending: false });
    saveState.value = 'saved';
  } catch {
    writeCache({ layout, pending: true });
    saveState.value = 'offline';
  }
}

/** Loads the layout: the cache at once, then the server's (or, when the cache holds an unsent change, sends it). */
export async function loadLayout(): Promise<void> {
  const cached = readCache();
  if (cached && savedLayout.value === undefined) savedLayout.value = cached.layout;
  if (cached?.pending) {
    saveState.value = 'offline';
    sending = sending.then(() => send(cached.layout));
    return sending;
  }
  const savesBefore = saves;
  try {
    const { layout } = await getJson<StoredHomeLayout>('/api/homelayout', { what: 'the home layout' });
    // A change saved while this read was under way is newer than its answer (and on its way to the server): keep it.
    if (saves !== savesBefore) return;
    const parsed = layout === null ? null : parseLayout(layout);
    const next = parsed === null ? null : parsed.ok ? parsed.layout : null;
    savedLayout.value = next;
    writeCache({ layout: next, pending: false });
  } catch {
    // Offline: the cached copy (or the default) stays.
    if (savedLayout.value === undefined) savedLayout.value = null;
  }
}

/** Saves `layout` (null: back to the default), on screen at once; saves are sent one after another, in order. */
export function saveLayout(layout: HomeLayout | null): Promise<void> {
  const next = layout === null ? null : pruneSizes(layout);
  saves++;
  savedLayout.value = next;
  writeCache({ layout: next, pending: true });
  sending = sending.then(() => send(next));
  return sending;
}

/** A layout another tab saved (the live topic ui.homelayout). */
export function receivedLayout(value: unknown): void {
  const layout = (value as { layout?: unknown } | null)?.layout;
  if (layout === undefined || saveState.value === 'saving') return;
  const parsed = layout === null ? null : parseLayout(layout);
  if (parsed !== null && !parsed.ok) return;
  const next = parsed === null ? null : parsed.layout;
  savedLayout.value = next;
  writeCache({ layout: next, pending: false });
}

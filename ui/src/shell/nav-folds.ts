// Which folds of the sidebar the user opened: a preference of this browser (localStorage), not of the installation,
// since a phone and a desktop want different ones.
import { signal } from '@preact/signals';

const KEY = 'vigil.nav.open';

function load(): Set<string> {
  try {
    const saved: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '[]');
    return new Set(Array.isArray(saved) ? saved.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

export const openFolds = signal<ReadonlySet<string>>(load());

export function setFoldOpen(key: string, open: boolean): void {
  if (openFolds.value.has(key) === open) return;
  const next = new Set(openFolds.value);
  if (open) next.add(key); else next.delete(key);
  openFolds.value = next;
  try { globalThis.localStorage?.setItem(KEY, JSON.stringify([...next])); } catch { /* storage full or off: the fold still works this visit */ }
}

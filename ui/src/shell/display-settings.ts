// Display settings: theme (system, light or dark), Simple mode (developer pages hidden) and Reduce effects (no
// motion; also on whenever the system asks for reduced motion). They persist on the server per installation
// (`/api/ui/settings`), and the server writes them onto <html> in index.html, so the first paint is already right.
import { computed, signal } from '@preact/signals';
import { putJson } from '../data/api.js';
import type { DisplaySettings } from '../data/api.gen.js';
import { announce } from './announcer.js';

export type { DisplaySettings };
export type Theme = DisplaySettings['theme'];

export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

/** The settings as written on `<html>` (data-theme, data-simple-mode, data-reduce-effects). */
export function readSettings(root: { dataset: DOMStringMap }): DisplaySettings {
  const theme = root.dataset.theme as Theme;
  return {
    theme: THEMES.includes(theme) ? theme : 'system',
    simple_mode: root.dataset.simpleMode === 'true',
    reduce_effects: root.dataset.reduceEffects === 'true',
  };
}

/** Writes `s` onto `<html>`, where the CSS reads it. */
export function writeSettings(root: { dataset: DOMStringMap }, s: DisplaySettings): void {
  root.dataset.theme = s.theme;
  root.dataset.simpleMode = String(s.simple_mode);
  root.dataset.reduceEffects = String(s.reduce_effects);
}

const media = (query: string) => (typeof matchMedia === 'function' ? matchMedia(query) : undefined);
const darkQuery = media('(prefers-color-scheme: dark)');
const motionQuery = media('(prefers-reduced-motion: reduce)');

export const settings = signal<DisplaySettings>(typeof document === 'undefined' ? { theme: 'system', simple_mode: false, reduce_effects: false } : readSettings(document.documentElement));
export const systemPrefersDark = signal(darkQuery?.matches ?? false);
export const systemReducesMotion = signal(motionQuery?.matches ?? false);
darkQuery?.addEventListener('change', (e) => { systemPrefersDark.value = e.matches; });
motionQuery?.addEventListener('change', (e) => { systemReducesMotion.value = e.matches; });

/** The theme on screen: the chosen one, or the system's. */
export const effectiveTheme = computed<'light' | 'dark'>(() => {
  const t = settings.value.theme;
  return t === 'system' ? (systemPrefersDark.value ? 'dark' : 'light') : t;
});

/** Whether effects are reduced: by the setting, or by the system. */
export const effectsReduced = computed(() => settings.value.reduce_effects || systemReducesMotion.value);

/** Settings that arrived from elsewhere (another tab, on the live stream): applied, not saved again. */
export function receiveSettings(next: DisplaySettings): void {
  settings.value = next;
  writeSettings(document.documentElement, next);
}

let saving = Promise.resolve();

/** Changes some settings at once on screen, then saves them; on failure puts them back and says why. */
export function updateSettings(change: Partial<DisplaySettings>): Promise<void> {
  const before = settings.value;
  const next = { ...before, ...change };
  receiveSettings(next);
  // One save at a time, in order, so the last change is the one stored.
  saving = saving.then(() => putJson<DisplaySettings>('/api/ui/settings', next, { what: 'saving the display settings' })).then(
    () => {},
    (err: Error & { next?: string }) => {
      receiveSettings(before);
      announce(`${err.message} ${err.next ?? ''} The setting was not saved.`.trim());
    },
  );
  return saving;
}

/** Flips between light and dark from what is on screen (the sidebar's button). */
export function toggleTheme(): Promise<void> {
  return updateSettings({ theme: effectiveTheme.value === 'dark' ? 'light' : 'dark' });
}

// The router: the address bar is the state. Pages change with pushState; back and forward (popstate) are followed;
// links are ordinary <a href> that the router takes over for a plain click.
import { signal } from '@preact/signals';
import type { AnchorHTMLAttributes } from 'preact';
import { normalizePath, readChoice, splitHref, withParams } from './url-state.js';

export interface Here {
  path: string;
  /** `''` or `?…` */
  search: string;
}

const read = (): Here => ({ path: normalizePath(window.location.pathname), search: window.location.search === '?' ? '' : window.location.search });

export const here = signal<Here>(typeof window === 'undefined' ? { path: '/', search: '' } : read());
/** Bumped on every navigation after the first page, so the page host knows to move focus to the new page. */
export const navigations = signal(0);

/** Follows back and forward. Call once. */
export function startRouter(): void {
  window.addEventListener('popstate', () => {
    const next = read();
    // A fragment link (`#main`) pops state too, without leaving the page.
    if (next.path === here.value.path && next.search === here.value.search) return;
    here.value = next;
    navigations.value++;
  });
}

/** Opens `to` (a path on this server, with query). `replace` changes the current history entry instead of adding one. */
export function navigate(to: string, { replace = false } = {}): void {
  const { path, search } = splitHref(to);
  const next = { path: normalizePath(path), search };
  if (next.path === here.value.path && next.search === here.value.search) return;
  window.history[replace ? 'replaceState' : 'pushState'](null, '', next.path + next.search);
  // A replacement is a redirect (`/` to the first area), not a move the person made: focus stays where it is.
  const moved = next.path !== here.value.path && !replace;
  here.value = next;
  if (moved) navigations.value++;
}

/**
 * A choice kept in the query string (`?range=1h`): the value, and a setter that adds a history entry, so back
 * returns to the previous choice. The default is left out of the URL.
 */
export function useChoice<T extends string>(name: string, allowed: readonly T[], fallback: T): [T, (value: T) => void] {
  const { path, search } = here.value;
  const value = readChoice(search, name, allowed, fallback);
  return [value, (next: T) => navigate(path + withParams(search, { [name]: next }, { [name]: fallback }))];
}

/** A plain left click without modifier keys: the router's to take; anything else (new tab, download) is the browser's. */
export const isPlainClick = (e: MouseEvent): boolean => !e.defaultPrevented && e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/** A link inside the app. */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes & { href: string }) {
  return (
    <a href={href} {...rest} onClick={(e) => {
      (onClick as ((e: MouseEvent) => void) | undefined)?.(e);
      if (!isPlainClick(e)) return;
      e.preventDefault();
      navigate(href);
    }} />
  );
}

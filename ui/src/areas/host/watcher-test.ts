// A log watcher's pattern, checked in the browser before it is sent: the server compiles it again, refuses one that
// can backtrack catastrophically, and runs the real test (POST /api/logwatch/test).
import type { WatcherInput, WatcherRow } from './host-api.js';

export type PatternCheck = { ok: true } | { ok: false; message: string };

/** Whether `pattern` compiles as a JavaScript regular expression (as the server runs it), or why not. */
export function checkPattern(pattern: string, ignoreCase = false): PatternCheck {
  if (!pattern) return { ok: false, message: 'Give a pattern: a regular expression a line must match.' };
  if (pattern.length > 500) return { ok: false, message: 'A pattern is at most 500 characters.' };
  try {
    new RegExp(pattern, ignoreCase ? 'i' : '');
    return { ok: true };
  } catch (err) {
    return { ok: false, message: `The pattern does not compile: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}` };
  }
}

/** A listed watcher as the config takes it back (its state left out, a path only for a file). */
export function watcherInput(w: Pick<WatcherRow, 'name' | 'pattern' | 'ignore_case' | 'source' | 'path' | 'enabled'>): WatcherInput {
  const input: WatcherInput = { name: w.name.trim(), pattern: w.pattern, ignore_case: w.ignore_case, source: w.source, enabled: w.enabled };
  if (w.source === 'file') input.path = w.path ?? null;
  return input;
}

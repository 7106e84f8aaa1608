/**
 * Actions the assistant may propose. The model is told to write a proposal as a fenced block of language
 * `vigil-action` holding one JSON object; a block that names an action not listed here, or whose target does not fit
 * the action's pattern, is not a proposal and stays text. A proposal runs nothing: it is a card that opens the page
 * where the user does it with that page's own button and confirmation.
 */
interface KnownAction {
  /** The JSON key that holds the target; null for an action without one. */
  field: 'unit' | 'query' | 'process' | null;
  pattern?: RegExp;
  label(target: string | null): string;
  page: string;
  path(target: string | null): string;
}

const UNIT = /^[A-Za-z0-9@._:\\-]{1,200}$/;
const q = (t: string | null) => encodeURIComponent(t ?? '');

export const KNOWN_ACTIONS: Readonly<Record<string, KnownAction>> = {
  restart_unit: { field: 'unit', pattern: UNIT, label: (t) => `Restart ${t}`, page: 'Services', path: (t) => `/host/services?q=${q(t)}` },
  start_unit: { field: 'unit', pattern: UNIT, label: (t) => `Start ${t}`, page: 'Services', path: (t) => `/host/services?q=${q(t)}` },
  stop_unit: { field: 'unit', pattern: UNIT, label: (t) => `Stop ${t}`, page: 'Services', path: (t) => `/host/services?q=${q(t)}` },
  show_logs: { field: 'query', pattern: /^[^\u0000-\u001f]{1,200}$/, label: (t) => `Show log lines with "${t}"`, page: 'Logs', path: (t) => `/host/logs?q=${q(t)}` },
  end_process: { field: 'process', pattern: /^[A-Za-z0-9_.@:+-]{1,100}$/, label: (t) => `End process ${t}`, page: 'Processes', path: (t) => `/host/processes?q=${q(t)}` },
  clean_apt_cache: { field: null, label: () => 'Clean the package cache', page: 'Storage', path: () => '/host/storage?tab=cleanup' },
  install_updates: { field: null, label: () => 'Install the pending updates', page: 'Packages', path: () => '/host/packages' },
};

export interface Proposal {
  action: string;
  target: string | null;
  reason: string | null;
  /** What the card says: "Restart nginx.service". */
  label: string;
  /** The dashboard page it is done on, and the address that opens it with the target filled in. */
  page: string;
  path: string;
  /** The block's JSON text as the model wrote it, so the panel shows a card in its place. */
  source: string;
}

/** Proposals read from one answer at most: a card each. */
export const MAX_PROPOSALS = 5;
const BLOCK = /```vigil-action[ \t]*\r?\n([\s\S]*?)```/g;

/** The valid proposals in an answer, in order (at most MAX_PROPOSALS). */
export function parseProposals(answer: string): Proposal[] {
  const out: Proposal[] = [];
  for (const m of answer.matchAll(BLOCK)) {
    const p = proposalOf(m[1].trim());
    if (p) out.push(p);
    if (out.length === MAX_PROPOSALS) break;
  }
  return out;
}

function proposalOf(source: string): Proposal | null {
  let v: unknown;
  try {
    v = JSON.parse(source);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const known = typeof o.action === 'string' && Object.hasOwn(KNOWN_ACTIONS, o.action) ? KNOWN_ACTIONS[o.action] : undefined;
  if (!known) return null;
  const allowed = new Set(['action', 'reason', ...(known.field ? [known.field] : [])]);
  if (Object.keys(o).some((k) => !allowed.has(k))) return null;
  let target: string | null = null;
  if (known.field) {
    const t = o[known.field];
    if (typeof t !== 'string' || !known.pattern!.test(t)) return null;
    target = t;
  }
  const reason = typeof o.reason === 'string' ? o.reason.slice(0, 300) : null;
  if (o.reason !== undefined && reason === null) return null;
  return { action: o.action as string, target, reason, label: known.label(target), page: known.page, path: known.path(target), source };
}

// Custom host rules in words: what each kind watches, what its target and value mean, a rule as one sentence, and
// what is missing from a draft before it can be tested or saved (the server checks again, and says the same).
import type { CustomKind, CustomDraft } from './host-api.js';

export const CUSTOM_KINDS: readonly CustomKind[] = ['unit', 'port', 'process', 'folder', 'backup'];

export interface KindText {
  label: string;
  /** The target field's label and an example. */
  target: string;
  example: string;
  /** The value field's label and unit, for the kinds that take one. */
  value?: { label: string; unit: string; fallback?: number };
}

export const KIND_TEXT: Record<CustomKind, KindText> = {
  unit: { label: 'Service stopped', target: 'systemd unit', example: 'nginx.service' },
  port: { label: 'Port not listening', target: 'Port', example: '5432' },
  process: { label: 'Process gone', target: 'Process name', example: 'postgres' },
  folder: { label: 'Folder too large', target: 'Folder (absolute path)', example: '/var/log', value: { label: 'Fires past', unit: 'GB' } },
  backup: { label: 'Backup too old', target: 'Backup file or folder (absolute path)', example: '/mnt/backup', value: { label: 'Fires when older than', unit: 'days', fallback: 7 } },
};

/** A rule as one sentence: `Fires when nginx.service (a user unit) stops running.` */
export function describeRule(r: Pick<CustomDraft, 'kind' | 'target' | 'value' | 'user'>): string {
  switch (r.kind) {
    case 'unit': return `Fires when ${r.target}${r.user ? ' (a user unit)' : ''} stops running.`;
    case 'port': return `Fires when nothing listens on port ${r.target}.`;
    case 'process': return `Fires when no process named ${r.target} runs.`;
    case 'folder': return `Fires when ${r.target} grows past ${r.value ?? '?'} GB.`;
    case 'backup': return `Fires when the newest file in ${r.target} is older than ${r.value ?? KIND_TEXT.backup.value!.fallback} days.`;
  }
}

/** What keeps a draft from being tested or saved, in words, or null when it is complete. */
export function draftProblem(r: Pick<CustomDraft, 'name' | 'kind' | 'target' | 'value'>): string | null {
  if (!r.name.trim()) return 'Give the rule a name.';
  if (r.name.length > 60) return 'The name is at most 60 characters.';
  const target = r.target.trim();
  if (!target) return `Give the ${KIND_TEXT[r.kind].target.toLowerCase()}.`;
  if (r.kind === 'port' && !(/^\d{1,5}$/.test(target) && Number(target) >= 1 && Number(target) <= 65535)) return 'A port is a number from 1 to 65535.';
  if ((r.kind === 'folder' || r.kind === 'backup') && !target.startsWith('/')) return 'Give an absolute path, starting with /.';
  if (r.kind === 'folder' && !(typeof r.value === 'number' && r.value > 0)) return 'Give the size in GB past which it fires.';
  if (r.kind === 'backup' && r.value != null && !(r.value > 0)) return 'Give the age in days, more than 0.';
  return null;
}

/** The input the server takes for a draft: no value for the kinds without one. */
export function toInput(r: CustomDraft): CustomDraft {
  const input: CustomDraft = { name: r.name.trim(), kind: r.kind, target: r.target.trim(), enabled: r.enabled ?? true };
  if (KIND_TEXT[r.kind].value) input.value = r.value ?? null;
  if (r.kind === 'unit') input.user = r.user ?? false;
  if (r.cooldown_ms !== undefined) input.cooldown_ms = r.cooldown_ms;
  return input;
}

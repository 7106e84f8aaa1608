// The containers API as the Containers page reads it: the generated server shapes (ui/src/data/api.gen.ts).
import type { ContainerActionResult, ContainerEnvironment, ContainerLogs, ContainerRow, ContainersList, PodRow } from '../../../data/api.gen.js';

export type { ContainerActionResult, ContainerEnvironment, ContainerLogs, ContainerRow, ContainersList, PodRow };
export type EngineKind = ContainerEnvironment['kind'];
export type ContainerVerb = ContainerActionResult['action'];

/** Each environment's name as people write it. */
export const ENGINE_NAMES: Record<EngineKind, string> = {
  docker: 'Docker', podman: 'Podman', nerdctl: 'nerdctl', lxd: 'LXD', incus: 'Incus', kubernetes: 'Kubernetes',
};

/** What a row names in a log request and a state word's tone. */
export const logPath = (env: EngineKind, id: string, follow: boolean, tail: number, container?: string): string => {
  const q = new URLSearchParams({ env, id, tail: String(tail) });
  if (container) q.set('container', container);
  return `/api/ctrlogs${follow ? '/follow' : ''}?${q}`;
};

export function stateTone(state: string): 'success' | 'warning' | 'danger' | 'neutral' {
  if (state === 'running') return 'success';
  if (state === 'restarting' || state === 'paused' || state === 'created' || state === 'pending' || state === 'frozen') return 'warning';
  if (state === 'dead' || state === 'failed' || state === 'error') return 'danger';
  return 'neutral';
}

/** How long ago, in one short phrase (`3 h ago`); empty when unknown. */
export function ageText(created: number | null, now = Date.now()): string {
  if (created === null) return '';
  const s = Math.max(0, Math.floor(now / 1000 - created));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 365) return `${Math.floor(s / 86400)} days ago`;
  return `${Math.floor(s / (86400 * 365))} years ago`;
}

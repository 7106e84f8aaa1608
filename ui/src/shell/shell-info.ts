// What the shell learns from the server once, at start (`GET /api/ui/shell`): the version, which areas are
// configured, and the display settings.
import { signal } from '@preact/signals';
import type { Area } from '../areas/types.js';
import type { Shell } from '../data/api.gen.js';

/** `GET /api/ui/shell` */
export type ShellInfo = Shell;

export const shellInfo = signal<ShellInfo | undefined>(undefined);

/** The CLI as a snippet should call it here (`npx vigil` until the server says otherwise). */
export function vigilCli(): string {
  return shellInfo.value?.cli ?? 'npx vigil';
}

/** Whether `area` is configured in this installation. */
export function isConfigured(area: Pick<Area, 'id'>): boolean {
  return shellInfo.value?.areas.find((a) => a.id === area.id)?.configured ?? false;
}

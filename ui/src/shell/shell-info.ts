// What the shell learns from the server once, at start (`GET /api/ui/shell`): the version, which areas are
// configured, and the display settings.
import { signal } from '@preact/signals';
import type { Area } from '../areas/types.js';
import type { DisplaySettings } from './display-settings.js';

export interface ShellInfo {
  version: string;
  /** Every area the build knows, and whether one of its plugins is enabled. */
  areas: { id: string; configured: boolean }[];
  /** The enabled plugins' names. */
  plugins: string[];
  /** Absolute path of the config file, when the runtime has one. */
  config_file?: string;
  settings: DisplaySettings;
}

export const shellInfo = signal<ShellInfo | undefined>(undefined);

/** Whether `area` is configured in this installation. */
export function isConfigured(area: Pick<Area, 'id'>): boolean {
  return shellInfo.value?.areas.find((a) => a.id === area.id)?.configured ?? false;
}

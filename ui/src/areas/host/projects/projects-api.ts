// The project launcher's API as the Projects page reads it: the generated server shapes (ui/src/data/api.gen.ts).
import type { ProjectRun, ProjectRunPage, ProjectRuns, ProjectScript, ProjectScripts } from '../../../data/api.gen.js';

export type { ProjectRun, ProjectRunPage, ProjectRuns, ProjectScript, ProjectScripts };

/** The live topic that says a run has new output or a new state (never the output itself). */
export const RUN_TOPIC = 'host.projectrun';

export const scriptsPath = (dir: string | null): string => (dir ? `/api/projectscripts?dir=${encodeURIComponent(dir)}` : '/api/projectscripts');

export type RunState = ProjectRun['state'];
export const STATE_TONE = { running: 'accent', succeeded: 'success', failed: 'danger', stopped: 'warning', timed_out: 'warning' } as const;
export const STATE_WORD = { running: 'Running', succeeded: 'Succeeded', failed: 'Failed', stopped: 'Stopped', timed_out: 'Timed out' } as const;

/** "1.2 s", "3 min 4 s", "30 min", "2 h": how long a run took, or may take. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s % 3600 === 0) return `${s / 3600} h`;
  return s % 60 === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** KiB with one decimal below 10 KiB, MiB above 1 MiB. */
export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
}

import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { MAX_SUBFOLDERS } from './folder-roots.js';
import { MAX_SCRIPTS } from './project-script.js';
import { HISTORY_PAGE } from './run-history.js';
import { RUN_PAGE_LINES } from './run-registry.js';

const KINDS = ['npm', 'pnpm', 'yarn', 'bun', 'make'];
const STATES = ['running', 'succeeded', 'failed', 'stopped', 'timed_out'];
const argv: JsonSchema = { type: 'array', items: { type: 'string' }, minItems: 1, description: 'The program and its arguments, run without a shell in the folder.' };

export const projectScript = closedObject({
  kind: { enum: KINDS, description: 'npm/pnpm/yarn/bun: a package.json script (runner chosen by `packageManager` or the lockfile); make: a make target.' },
  name: { type: 'string' },
  argv,
  command: { type: 'string', description: 'argv as one line, for reading (quoted where a shell would need it).' },
  detail: { type: ['string', 'null'], description: 'The script\'s text, or where the target\'s recipe is (Makefile:12).' },
  default_goal: { type: 'boolean', description: 'make: the `.DEFAULT_GOAL`.' },
  phony: { type: 'boolean', description: 'make: listed in `.PHONY`.' },
}, { title: 'ProjectScript', optional: ['default_goal', 'phony'] });

export const launcherLimits = closedObject({
  max_running: { type: 'integer' }, timeout_s: { type: 'integer' }, output_cap_kib: { type: 'integer' }, history_keep: { type: 'integer' },
}, { title: 'ProjectLauncherLimits' });

export const projectScripts = closedObject({
  roots: { type: 'array', items: { type: 'string' }, description: 'Folders projects may be picked from (real paths).' },
  dir: { type: ['string', 'null'], description: 'The folder listed (its real path); null when none was asked.' },
  parent: { type: ['string', 'null'], description: 'Its parent when still under a root (the picker\'s "up").' },
  folders: { type: 'array', items: { type: 'string' }, maxItems: MAX_SUBFOLDERS, description: `Sub-folder names (not hidden ones, not node_modules), at most ${MAX_SUBFOLDERS}.` },
  folders_more: { type: 'boolean', description: 'There were more sub-folders than listed.' },
  scripts: { type: 'array', items: projectScript, maxItems: MAX_SCRIPTS * 2 },
  runner: { oneOf: [{ type: 'null' }, closedObject({ name: { enum: KINDS.slice(0, 4) }, reason: { type: 'string' } })], description: 'package.json\'s runner and why it is that one.' },
  makefile: { type: ['string', 'null'] },
  notes: { type: 'array', items: { type: 'string' }, description: 'What could not be read or was left out.' },
  limits: launcherLimits,
}, { title: 'ProjectScripts' });

const runFields: Record<string, JsonSchema> = {
  id: { type: 'string' },
  folder: { type: 'string' },
  kind: { enum: KINDS },
  name: { type: 'string' },
  argv,
  command: { type: 'string' },
  actor: { type: 'string', description: 'Who started it.' },
  state: { enum: STATES },
  exit_code: { type: ['integer', 'null'] },
  signal: { type: ['string', 'null'], description: 'The signal that ended the leader, when one did.' },
  note: { type: ['string', 'null'], description: 'Why it ended so (stopped by whom, the time limit, not installed).' },
  started_at: { type: 'string', format: 'date-time' },
  ended_at: { type: ['string', 'null'], format: 'date-time' },
  duration_ms: { type: 'integer', minimum: 0 },
  output_bytes: { type: 'integer', minimum: 0, description: 'Bytes the run printed in all.' },
  dropped_bytes: { type: 'integer', minimum: 0, description: 'Bytes the output cap dropped before the kept output.' },
};

export const projectRun = closedObject({ ...runFields, lines: { type: 'integer', minimum: 0, description: 'Output lines so far (the index after the last); 0 in the history, whose rows keep only a tail: open the run for it.' } }, { title: 'ProjectRun' });

export const projectRunPage = closedObject({
  ...runFields,
  live: { type: 'boolean', description: 'The run is in this process\'s memory (its kept output); false: from the history, its output\'s tail only.' },
  first: { type: 'integer', minimum: 0, description: 'Index of the oldest line still kept.' },
  next: { type: 'integer', minimum: 0, description: 'Pass as `since` for the lines after these.' },
  lines: { type: 'array', items: { type: 'string' }, maxItems: RUN_PAGE_LINES },
}, { title: 'ProjectRunPage' });

export const projectRuns = closedObject({
  runs: { type: 'array', items: projectRun, maxItems: 60, description: 'Runs of this process still in memory (running, or ended in the last hour), newest first.' },
  history: { type: 'array', items: projectRun, maxItems: HISTORY_PAGE, description: 'Finished runs from the store, newest first.' },
}, { title: 'ProjectRuns' });

export const runInput = closedObject({
  dir: { type: 'string', minLength: 1, maxLength: 4096 },
  kind: { enum: KINDS },
  name: { type: 'string', minLength: 1, maxLength: 200 },
}, { title: 'ProjectRunInput' });

// The API client's worker: imports (parse and convert a document of up to 4 MiB) and the view of large response
// bodies (decode, JSON parse and pretty-print, flow extractions). Failures travel back as data: errors lose their
// fields crossing the thread.
import { viewBody, type ViewResult, type ViewTask } from './body-view.js';
import { importText } from './import-any.js';
import type { Imported, ImportFormat } from './types.js';

export type ApiClientTask = { op: 'import'; text: string; format: ImportFormat | 'auto' } | ({ op: 'view' } & ViewTask);
export type ApiClientTaskResult = Imported | ViewResult | TaskFailure;

/** A failure as data, with the status of the error thrown in the worker. */
export interface TaskFailure { task_failed: true; status: number; message: string }

export const isTaskFailure = (v: ApiClientTaskResult): v is TaskFailure => (v as TaskFailure).task_failed === true;

export const TASK_URL = new URL('./import-task.js', import.meta.url);

export default function apiClientTask(task: ApiClientTask): ApiClientTaskResult {
  try {
    return task.op === 'import' ? importText(task.text, task.format) : viewBody(task);
  } catch (err) {
    return { task_failed: true, status: (err as { status?: number }).status ?? 500, message: (err as Error).message };
  }
}

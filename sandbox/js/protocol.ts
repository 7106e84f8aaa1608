/**
 * Messages between the sandbox (parent) and its child processes, over the IPC channel with `advanced`
 * serialization. Guest data crosses as JSON strings only.
 */
import type { JsFailureReason } from './types.js';

/** Settings a child reads from its first argument, as JSON. */
export interface ChildSettings {
  isolates: number;
  memoryLimitMb: number;
}

/** The source travels with the first task that needs it in a given child; later tasks name the id alone. */
export interface FunctionRef {
  id: string;
  filename: string;
  source?: string;
}

export interface TaskMessage {
  t: 'task';
  seq: number;
  /** `check` compiles and evaluates the module and checks its default export, without calling it. */
  mode: 'call' | 'check';
  fn: FunctionRef;
  /** The input as JSON; undefined when the caller passed undefined. */
  input?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  maxOutputDepth: number;
}

export interface StatsRequestMessage {
  t: 'stats';
  seq: number;
}

export type ParentMessage = TaskMessage | StatsRequestMessage;

export type TaskOutcome =
  | { ok: true; json: string; durationMs: number; logs?: string[] }
  | { ok: false; reason: JsFailureReason; message: string; stack?: string; durationMs: number; logs?: string[] };

export interface TaskResultMessage {
  t: 'result';
  seq: number;
  outcome: TaskOutcome;
  /** Set when the child can no longer be trusted (an isolate hit its memory limit): replace it. */
  retire?: string;
}

export interface ReadyMessage { t: 'ready' }

export interface StatsMessage {
  t: 'stats';
  seq: number;
  calls: number;
  isolates: Array<{ usedHeapBytes: number; totalHeapBytes: number; externalBytes: number; references: number }>;
  hostHeapUsedBytes: number;
}

/** Sent before the child aborts after isolated-vm reports a catastrophic error. */
export interface CatastrophicMessage { t: 'catastrophic'; message: string }

export type ChildMessage = ReadyMessage | TaskResultMessage | StatsMessage | CatastrophicMessage;

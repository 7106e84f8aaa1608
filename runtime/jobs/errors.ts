import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';

/** Codes of the jobs layer (`ctx.jobs`: interval jobs and durable queues). Each is caused by the plugin using it. */
export const JobsErrors = defineErrorCodes('JOBS', {
  SCHEDULE_ID: {
    meaning: 'A plugin registered an interval job (`every()`) with an empty id, or an id already registered in this process.',
    action: 'Plugin authors: give each interval job its own id, prefixed with the plugin name; operators: report it to the ' +
      'plugin named in the message.',
  },
  OPTION: {
    meaning: 'A plugin passed a jobs option that cannot work: an interval, lease, timeout, concurrency or limit that is not a ' +
      'positive number, a missing handler, an unknown job state.',
    action: 'Plugin authors: fix the option the message names; operators: report it to the plugin\'s author.',
  },
  QUEUE_NAME: {
    meaning: 'A plugin created a queue whose name is malformed (1-200 letters, digits and _ . : -) or already registered in ' +
      'this process.',
    action: 'Plugin authors: name each queue once, prefixed with the plugin name.',
  },
  PAYLOAD: {
    meaning: 'A job payload cannot be stored as JSON (a cycle, a BigInt), or a stored one cannot be parsed back.',
    action: 'Plugin authors: enqueue plain JSON values (strings, numbers, arrays, objects). A stored payload that does not ' +
      'parse means the jobs table was edited by hand.',
  },
  TIMEOUT: {
    meaning: 'A job\'s handler ran past its queue\'s `timeoutMs`; the job is retried with backoff until its attempts run out.',
    action: 'If it repeats, look at what the handler waits for (the job\'s last_error names the queue); plugin authors: raise ' +
      '`timeoutMs` or split the work into smaller jobs.',
  },
});

export class JobsError extends VigilError {
  constructor(code: ErrorCodeOf<typeof JobsErrors>, message: string, options?: { cause?: unknown }) {
    super(code, message, { status: 500, cause: options?.cause });
    this.name = 'JobsError';
  }
}

/** A positive finite number, or a JobsError naming the option and its owner. */
export function positive(value: unknown, what: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new JobsError(JobsErrors.OPTION, `jobs: ${what} must be a positive number of milliseconds or items, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The text recorded in `last_error`: message and code, never a whole stack. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const text = typeof code === 'string' ? `${code}: ${err.message}` : err.message || err.name;
    return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  }
  return String(err).slice(0, 2000);
}

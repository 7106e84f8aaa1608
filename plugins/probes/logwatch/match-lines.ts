import { createContext, Script } from 'node:vm';

/** One pattern to run over a batch of lines. */
export interface MatchPattern { name: string; pattern: string; ignoreCase: boolean }

export interface MatchTask {
  lines: string[];
  patterns: MatchPattern[];
  /** Milliseconds each pattern may take over the whole batch. */
  budgetMs: number;
}

/** Per pattern (same order): the indices of the matching lines, or `timedOut` when it ran past its budget. */
export type MatchResult = ({ indices: number[]; timedOut?: undefined } | { indices?: undefined; timedOut: true })[];

/** Per pattern: the time limit of a batch. A pattern that passes it on 1,000 lines is pathological, not slow. */
export const MATCH_BUDGET_MS = 250;

// Compiled once per process: the loop runs inside a context so that V8's interrupt (the `timeout`) can stop a
// backtracking regex in the middle of one `test`; a regex run in this module's own context could not be stopped.
const LOOP = new Script(`(() => {
  const re = new RegExp(pattern, flags);
  const out = [];
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) out.push(i);
  return out;
})()`);

/**
 * Runs each pattern over the lines with a time limit per pattern. Run it in a worker (the pool's task,
 * `match-worker.ts`): the limit bounds how long a bad pattern holds that thread, and the event loop never runs it.
 */
export function matchLines(task: MatchTask): MatchResult {
  const sandbox = createContext({ lines: task.lines, pattern: '', flags: '' });
  return task.patterns.map((p) => {
    sandbox.pattern = p.pattern;
    sandbox.flags = p.ignoreCase ? 'i' : '';
    try {
      const found = LOOP.runInContext(sandbox, { timeout: task.budgetMs }) as number[];
      return { indices: Array.from(found) };
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { timedOut: true as const };
      throw err;
    }
  });
}

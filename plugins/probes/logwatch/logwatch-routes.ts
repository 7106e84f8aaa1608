import { closedObject, httpError, type AlertsService, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { ProbesErrors } from '../errors.js';
import { allowedLogFile, LogFileRefused } from '../logs/log-file.js';
import type { LogAnswer, LogQuery } from '../logs/read-logs.js';
import { MATCH_BUDGET_MS, type MatchResult, type MatchTask } from './match-lines.js';
import { patternProblem } from './pattern-check.js';
import { watchedText } from './watch-poller.js';
import {
  DEDUP_MS, LOG_MATCH_SOURCE, MAX_WATCHERS, normaliseWatcher, sourceKey, WATCHER_CONFIG_SCHEMA, WATCHER_SCHEMA,
  type Watcher, type WatcherConfig,
} from './watcher.js';
import { WATCHER_RULE_PREFIX, watcherRules } from './watcher-rules.js';
import type { WatcherStore } from './watcher-store.js';

export interface LogwatchRouteDeps {
  store: WatcherStore;
  read(query: LogQuery): Promise<LogAnswer>;
  match(task: MatchTask): Promise<MatchResult>;
  allowedPaths: readonly string[];
  /** The alerts plugin's service, when it runs: each watcher gets a rule there. */
  alerts?: Pick<AlertsService, 'replaceManagedRules'>;
  /** How often the watchers poll. */
  intervalMs: number;
  now(): number;
}

/** Lines of its source a test reads (the newest), and matches it shows at most. */
export const TEST_LINES = 500;
export const TEST_MATCHES = 50;

const nullableText: JsonSchema = { type: ['string', 'null'] };
const iso: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

const watcherView = closedObject({
  ...(WATCHER_SCHEMA.properties as Record<string, JsonSchema>),
  state: closedObject({
    polled_at: { ...iso, description: 'When its source was last read.' },
    last_error: nullableText,
    note: { ...nullableText, description: 'How its source was read, e.g. a file instead of a missing journal.' },
    matches_24h: { type: 'integer', minimum: 0 },
    recent: { type: 'array', maxItems: 5, items: closedObject({ line: { type: 'string' }, seen_at: { type: 'string', format: 'date-time' } }, { title: 'LogWatchMatch' }) },
  }, { title: 'LogWatcherState' }),
}, { title: 'LogWatcherView' });

const configView = closedObject({
  enabled: { type: 'boolean' },
  rules: { type: 'array', maxItems: MAX_WATCHERS, items: watcherView },
  alert_source: { type: 'string', description: 'The alert source each watcher is a scope of (scope.target = its name).' },
  interval_s: { type: 'integer' },
  dedup_s: { type: 'integer' },
  max_rules: { type: 'integer' },
}, { title: 'LogWatchConfig' });

/** Why `config` cannot be saved, as an HttpError naming the rule and key; checks the patterns and the files. */
async function checkConfig(config: WatcherConfig, allowed: readonly string[]): Promise<void> {
  const seen = new Set<string>();
  for (const [i, w] of config.rules.entries()) await checkWatcher(w, allowed, `rules[${i}]`, seen);
}

async function checkWatcher(w: Watcher, allowed: readonly string[], where: string, seen = new Set<string>()): Promise<void> {
  const refuse = (key: string, message: string) => httpError(ProbesErrors.LOG_WATCHER, `${where}.${key}: ${message}`);
  if (seen.has(w.name)) throw refuse('name', `"${w.name}" is used by two watchers`);
  seen.add(w.name);
  const problem = patternProblem(w.pattern, w.ignore_case ? 'i' : '');
  if (problem) throw refuse('pattern', problem);
  if (w.source === 'file') {
    if (!w.path) throw refuse('path', 'a file watcher needs the file\'s path');
    try { await allowedLogFile(w.path, allowed); } catch (err) {
      if (err instanceof LogFileRefused) throw refuse('path', err.message.replace(/^path: /, ''));
      throw err;
    }
  }
}

/**
 * perch's log watcher endpoints: `GET /api/logwatch`, `POST /api/logwatchconfig` (the whole list, replaced), and
 * `POST /api/logwatch/test` (what a watcher matches in its source's newest 500 lines now, before saving it).
 */
export function registerLogwatchRoutes(http: HttpRoutes, deps: LogwatchRouteDeps): void {
  const view = async () => {
    const config = await deps.store.config();
    const now = deps.now();
    const rules = await Promise.all(config.rules.map(async (w) => {
      const [cursor, n, recent] = await Promise.all([deps.store.cursor(sourceKey(w)), deps.store.count(w.name, now - 86_400_000, now + 1), deps.store.recent(w.name, 5)]);
      return {
        ...w,
        state: {
          polled_at: cursor?.polled_at ? new Date(cursor.polled_at).toISOString() : null,
          last_error: cursor?.last_error ?? null, note: cursor?.note ?? null, matches_24h: n,
          recent: recent.map((m) => ({ line: m.line, seen_at: new Date(m.seen_at).toISOString() })),
        },
      };
    }));
    return { enabled: config.enabled, rules, alert_source: LOG_MATCH_SOURCE, interval_s: Math.round(deps.intervalMs / 1000), dedup_s: DEDUP_MS / 1000, max_rules: MAX_WATCHERS };
  };

  http.route({
    method: 'GET', path: '/api/logwatch', tags: ['host'],
    summary: 'The log watchers, with when each source was last read, its error and the latest matches',
    response: configView,
    handler: view,
  });

  http.route({
    method: 'POST', path: '/api/logwatchconfig', tags: ['host'],
    summary: 'Replace the log watchers (at most 20): regexes over the journal (system, user, kernel) or a file, polled every 20 s (probes.logs.watch_interval)',
    description: 'A pattern that does not compile, or with a repeated group that holds a repeated part (`(a+)+`), is refused. Each watcher is the scope `target` of the alert source `host.log_match`, and has an alert rule of its own (`host.logwatch.*`, a new matching line in a minute) when the alerts plugin runs.',
    body: WATCHER_CONFIG_SCHEMA,
    response: configView,
    async handler(ctx) {
      const body = ctx.request.body as { enabled?: boolean; rules: Watcher[] };
      const config: WatcherConfig = { enabled: body.enabled ?? true, rules: body.rules.map(normaliseWatcher) };
      await checkConfig(config, deps.allowedPaths);
      await deps.store.replace(config, deps.now());
      // Every watcher alerts through the shared engine (when the alerts plugin runs), with the host's channels.
      await deps.alerts?.replaceManagedRules(WATCHER_RULE_PREFIX, watcherRules(config));
      return view();
    },
  });

  http.route({
    method: 'POST', path: '/api/logwatch/test', tags: ['host'],
    summary: 'What a watcher matches now: its pattern over the newest 500 lines of its source, without saving it',
    body: { type: 'object', additionalProperties: false, required: ['rule'], properties: { rule: WATCHER_SCHEMA } },
    response: closedObject({
      matches: { type: 'array', maxItems: TEST_MATCHES, items: closedObject({ time: iso, line: { type: 'string' } }, { title: 'LogWatchTestMatch' }) },
      matched: { type: 'integer', minimum: 0, description: 'Lines that matched, of which the newest 50 are listed.' },
      lines_read: { type: 'integer', minimum: 0 },
      origin: { enum: ['journal', 'file', 'none'] },
      path: nullableText,
      note: nullableText,
      timed_out: { type: 'boolean', description: `The pattern ran past ${MATCH_BUDGET_MS} ms over these lines: it would be skipped while watching.` },
    }, { title: 'LogWatchTest' }),
    async handler(ctx) {
      const w = normaliseWatcher((ctx.request.body as { rule: Watcher }).rule);
      await checkWatcher(w, deps.allowedPaths, 'rule');
      let answer: LogAnswer;
      try {
        answer = await deps.read({ source: w.source, n: TEST_LINES, ...(w.path ? { path: w.path } : {}) });
      } catch (err) {
        if (err instanceof LogFileRefused) throw httpError(ProbesErrors.LOG_PATH, err.message);
        throw httpError(ProbesErrors.LOG_READ, (err as Error).message);
      }
      const lines = answer.lines.map(watchedText);
      const [result] = lines.length
        ? await deps.match({ lines, budgetMs: MATCH_BUDGET_MS, patterns: [{ name: w.name, pattern: w.pattern, ignoreCase: w.ignore_case }] })
        : [{ indices: [] as number[] }];
      const indices = result.indices ?? [];
      return {
        matches: indices.slice(-TEST_MATCHES).map((i) => ({ time: answer.lines[i].time, line: lines[i] })),
        matched: indices.length, lines_read: lines.length, origin: answer.origin, path: answer.path, note: answer.note,
        timed_out: result.timedOut === true,
      };
    },
  });
}

import { closedObject, httpError, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { ProbesErrors } from '../errors.js';
import { LogFileRefused } from './log-file.js';
import { LOG_SOURCES, MAX_LINES, MAX_MESSAGE_CHARS, parsePriority, type LogSource } from './log-line.js';
import { readLogs, type LogReaderOptions } from './read-logs.js';

export const LOG_LINE_SCHEMA: JsonSchema = closedObject({
  time: { type: ['string', 'null'], format: 'date-time' },
  priority: { type: ['integer', 'null'], minimum: 0, maximum: 7, description: '0 emerg … 7 debug; null for a file line.' },
  unit: { type: ['string', 'null'], description: 'The systemd unit, else the syslog identifier or command.' },
  pid: { type: ['integer', 'null'] },
  message: { type: 'string', maxLength: MAX_MESSAGE_CHARS },
}, { title: 'LogLine' });

const answerSchema = closedObject({
  source: { enum: [...LOG_SOURCES] },
  origin: { enum: ['journal', 'file', 'none'], description: 'What was read: without a journal, a journal view reads its syslog file.' },
  path: { type: ['string', 'null'] },
  lines: { type: 'array', items: LOG_LINE_SCHEMA, maxItems: MAX_LINES },
  cursor: { type: ['string', 'null'], description: 'Pass back as `cursor` for the lines after these.' },
  truncated: { type: 'boolean' },
  note: { type: ['string', 'null'] },
}, { title: 'LogLines' });

/**
 * `GET /api/logs` (perch's name and parameters). Bounds: at most 1,000 lines of at most 4,096 characters; journalctl
 * runs with a 5 s timeout and 64 MiB of output at most (parsed line by line as it arrives); a file is read from its last 1 MiB.
 */
export function registerLogRoutes(http: HttpRoutes, options: LogReaderOptions): void {
  http.route({
    method: 'GET', path: '/api/logs', tags: ['host'],
    summary: 'Lines of the journal (system, user, kernel) or of a log file, newest last, with filters',
    description: 'At most 1,000 lines of at most 4,096 characters; journalctl has 5 s; a file is read from its last 1 MiB. Without a journal, system and kernel read /var/log/syslog and kern.log, and `note` says so.',
    query: {
      type: 'object', additionalProperties: false,
      properties: {
        source: { enum: [...LOG_SOURCES], default: 'system' },
        path: { type: 'string', maxLength: 4096, description: 'For source=file: an absolute path under the allowed folders.' },
        n: { type: 'integer', minimum: 1, maximum: MAX_LINES, default: 200 },
        q: { type: 'string', maxLength: 200, description: 'Text the line contains, case-insensitive, matched literally.' },
        prio: { type: 'string', maxLength: 10, description: 'The least severe priority kept: 0-7 or emerg, alert, crit, err, warning, notice, info, debug.' },
        cursor: { type: 'string', maxLength: 512, description: 'A previous answer\'s cursor: only the lines after it.' },
      },
    },
    response: answerSchema,
    async handler(ctx) {
      const q = ctx.query as { source?: LogSource; path?: string; n?: number; q?: string; prio?: string; cursor?: string };
      const maxPriority = q.prio === undefined || q.prio === '' ? undefined : parsePriority(q.prio);
      if (q.prio && maxPriority === undefined) throw httpError(ProbesErrors.LOG_QUERY, `prio: "${q.prio}" is not a priority (0-7, or emerg, alert, crit, err, warning, notice, info, debug)`);
      try {
        return await readLogs({
          source: q.source ?? 'system', path: q.path, n: Number(q.n ?? 200), maxPriority,
          text: q.q?.trim() || undefined, cursor: q.cursor || undefined,
        }, options);
      } catch (err) {
        if (err instanceof LogFileRefused) throw httpError(ProbesErrors.LOG_PATH, err.message);
        throw httpError(ProbesErrors.LOG_READ, (err as Error).message);
      }
    },
  });
}

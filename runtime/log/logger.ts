import type { Logger, LogFields } from '@vigil/plugin-sdk';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  level?: LogLevel;
  /** `json` lines (default when stderr is not a TTY) or `pretty` for people. */
  format?: 'json' | 'pretty';
  write?: (line: string) => void;
}

/** Errors become plain data: a JSON line must never lose the message or stack. */
function serialise(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Error) {
      out[k] = { message: v.message, code: (v as { code?: unknown }).code, stack: v.stack };
    } else out[k] = v;
  }
  return out;
}

function pretty(level: LogLevel, msg: string, fields: LogFields): string {
  const t = new Date().toISOString().slice(11, 23);
  const { plugin, ...rest } = fields;
  const tag = plugin ? ` [${plugin}]` : '';
  const extra = Object.entries(rest)
    .map(([k, v]) => {
      if (v && typeof v === 'object' && 'message' in (v as object)) return `${k}=${JSON.stringify((v as { message: string }).message)}`;
      return `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
    })
    .join(' ');
  return `${t} ${level.toUpperCase().padEnd(5)}${tag} ${msg}${extra ? ' ' + extra : ''}\n`;
}

/** A logger writing one line per entry to stderr: JSON lines, or a readable form on a TTY. */
export function createLogger(options: LoggerOptions = {}, bound: LogFields = {}): Logger {
  const min = rank[options.level ?? 'info'];
  const format = options.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (rank[level] < min) return;
    const all = serialise({ ...bound, ...fields });
    write(format === 'json' ? JSON.stringify({ time: new Date().toISOString(), level, msg, ...all }) + '\n' : pretty(level, msg, all));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ ...options, format, write }, { ...bound, ...fields }),
  };
}

import type { LogFields, Logger } from '@vigil/plugin-sdk';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  fields: LogFields;
}

/** A `Logger` that keeps its lines (children share the parent's list and merge their fields). */
export function recordingLogger(entries: LogEntry[] = [], base: LogFields = {}): Logger & { entries: LogEntry[] } {
  const write = (level: LogEntry['level']) => (msg: string, fields?: LogFields) => {
    entries.push({ level, msg, fields: { ...base, ...fields } });
  };
  return {
    entries,
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields: LogFields) => recordingLogger(entries, { ...base, ...fields }),
  };
}

import type { Logger } from '@vigil/plugin-sdk';

/**
 * One UTF-8 line for a record, ending in "\n" (JSON.stringify escapes newlines inside strings, so a record never
 * spans two lines), or undefined for a record that cannot be serialised (a cycle, a BigInt): it is logged and
 * skipped rather than failing the whole batch, which retrying would never fix.
 */
export function jsonLine(record: unknown, log: Logger): Buffer | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(record);
  } catch (err) {
    log.warn('record skipped: not serialisable as JSON', { error: (err as Error).message });
    return undefined;
  }
  return text === undefined ? undefined : Buffer.from(text + '\n', 'utf8');
}

/** `jsonLine` for each record of a batch, skipping the ones that cannot be serialised. */
export function toJsonLines(batch: readonly unknown[], log: Logger): Buffer[] {
  const lines: Buffer[] = [];
  for (const record of batch) {
    const line = jsonLine(record, log);
    if (line) lines.push(line);
  }
  return lines;
}

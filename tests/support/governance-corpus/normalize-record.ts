// The corpus's normalization of a stored record (CORPUS_FORMAT.md): its JSON text as recordJson writes it, with the
// values of `id`, `time` and `duration_ms` replaced by "", 0 and 0. Everything else is kept byte for byte.

/**
 * `text` normalized. The record's first eight keys are written in a fixed order (id, time, method, path, route,
 * query, status, duration_ms), so their text is rebuilt from their parsed values and must be exactly what `text`
 * starts with: nothing after them (the bodies keep their own text) is touched. Throws for a text that is not a
 * record written that way.
 */
export function normalizeRecord(text: string): string {
  const r = JSON.parse(text) as Record<string, unknown>;
  const s = JSON.stringify;
  const tail = `"method":${s(r.method)},"path":${s(r.path)},"route":${s(r.route)},"query":${s(r.query)},"status":${s(r.status)},`;
  const prefix = `{"id":${s(r.id)},"time":${s(r.time)},${tail}"duration_ms":${s(r.duration_ms)},`;
  if (!text.startsWith(prefix)) throw new Error(`not a record as recordJson writes it (its keys start otherwise): ${text.slice(0, 200)}`);
  return `{"id":"","time":0,${tail}"duration_ms":0,${text.slice(prefix.length)}`;
}

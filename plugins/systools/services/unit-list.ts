// systemctl's unit and timer tables as data: `--output=json` where systemctl has it (systemd 246 and later), the
// plain columns otherwise. Pure parsers; the fixtures they are tested on are in tests/fixtures/systemd/.

export interface UnitRow {
  unit: string;
  load: string;
  active: string;
  sub: string;
  description: string;
}

export interface TimerRow {
  unit: string;
  activates: string | null;
  /** ISO 8601; null when not scheduled (n/a). */
  next: string | null;
  last: string | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `systemctl list-units --output=json`: an array of `{unit, load, active, sub, description}`. Throws on other text. */
export function parseUnitsJson(text: string): UnitRow[] {
  const rows: unknown = JSON.parse(text);
  if (!Array.isArray(rows)) throw new Error('systemctl\'s JSON is not an array');
  return rows.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && typeof (r as { unit?: unknown }).unit === 'string')
    .map((r) => ({ unit: str(r.unit), load: str(r.load), active: str(r.active), sub: str(r.sub), description: str(r.description) }));
}

/**
 * `systemctl list-units --plain --no-legend`: UNIT LOAD ACTIVE SUB DESCRIPTION, the description to the end of the
 * line. A leading `●` (a failed or not-found unit, printed even with --plain by some versions) is dropped.
 */
export function parsePlainUnits(text: string): UnitRow[] {
  const rows: UnitRow[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[●*]\s+)?(\S+)\s+(\S+)\s+(\S+)\s+(\S+)(?:\s+(.*))?$/.exec(line);
    if (m) rows.push({ unit: m[1], load: m[2], active: m[3], sub: m[4], description: (m[5] ?? '').trim() });
  }
  return rows;
}

/** `systemctl list-unit-files --output=json`: unit file → its state (enabled, disabled, static, masked, …). */
export function parseUnitFilesJson(text: string): Map<string, string> {
  const rows: unknown = JSON.parse(text);
  const states = new Map<string, string>();
  if (!Array.isArray(rows)) return states;
  for (const r of rows as Record<string, unknown>[]) {
    const file = str(r?.unit_file);
    // Some versions print the path of a linked unit file: the unit is its base name.
    if (file) states.set(file.slice(file.lastIndexOf('/') + 1), str(r.state));
  }
  return states;
}

/** `systemctl list-unit-files --plain --no-legend`: UNIT FILE, STATE [PRESET]. */
export function parsePlainUnitFiles(text: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\s*(\S+)\s+(\S+)/.exec(line);
    if (m) states.set(m[1].slice(m[1].lastIndexOf('/') + 1), m[2]);
  }
  return states;
}

/** A timestamp cell of systemctl's JSON: microseconds since the epoch (0 or null: none), or text on old versions. */
function timestamp(v: unknown): string | null {
  // USEC_INFINITY (2^64 - 1) and 0 mean none.
  if (typeof v === 'number') return v > 0 && v < 8.64e18 ? new Date(Math.floor(v / 1000)).toISOString() : null;
  if (typeof v === 'string' && v !== '' && v !== 'n/a' && v !== '-') {
    const t = Date.parse(v.replace(/^[A-Za-z]{3} /, '').replace(/ [A-Z]{2,5}$/, ''));
    return Number.isFinite(t) ? new Date(t).toISOString() : null;
  }
  return null;
}

/** `systemctl list-timers --all --output=json`: `{next, left, last, passed, unit, activates}`. */
export function parseTimersJson(text: string): TimerRow[] {
  const rows: unknown = JSON.parse(text);
  if (!Array.isArray(rows)) throw new Error('systemctl\'s JSON is not an array');
  return (rows as Record<string, unknown>[]).filter((r) => typeof r?.unit === 'string').map((r) => ({
    unit: str(r.unit),
    activates: str(r.activates) || null,
    next: timestamp(r.next),
    last: timestamp(r.last),
  }));
}

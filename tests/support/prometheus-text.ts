/** One sample of a parsed exposition. */
export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedExposition {
  help: Map<string, string>;
  type: Map<string, string>;
  samples: ParsedSample[];
}

function unescapeText(s: string, quotes: boolean): string {
  return s.replace(quotes ? /\\(["\\n])/g : /\\([\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function parseValue(s: string): number {
  if (s === '+Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  if (s === 'NaN') return NaN;
  const n = Number(s);
  if (s.trim() === '' || Number.isNaN(n)) throw new Error(`bad sample value ${JSON.stringify(s)}`);
  return n;
}

/**
 * A strict reader of the Prometheus text format 0.0.4, written for tests: every line must be a HELP, a TYPE or a
 * sample, and anything else throws with the line number.
 */
export function parseExposition(text: string): ParsedExposition {
  const out: ParsedExposition = { help: new Map(), type: new Map(), samples: [] };
  if (text !== '' && !text.endsWith('\n')) throw new Error('exposition must end with a newline');
  const lines = text.split('\n');
  lines.pop();
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${JSON.stringify(line)}`;
    let m = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (m) { out.help.set(m[1], unescapeText(m[2], false)); return; }
    m = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (m) { out.type.set(m[1], m[2]); return; }
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`unparseable ${where}`);
    const labels: Record<string, string> = {};
    let rest = m[2] ?? '';
    while (rest.length > 0) {
      const pair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/.exec(rest);
      if (!pair) throw new Error(`bad labels in ${where}`);
      if (pair[1] in labels) throw new Error(`label ${pair[1]} twice in ${where}`);
      labels[pair[1]] = unescapeText(pair[2], true);
      rest = rest.slice(pair[0].length);
    }
    out.samples.push({ name: m[1], labels, value: parseValue(m[3]) });
  });
  return out;
}

/** The samples of one series name whose labels include `match`. */
export function samplesOf(parsed: ParsedExposition, name: string, match: Record<string, string> = {}): ParsedSample[] {
  return parsed.samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v));
}

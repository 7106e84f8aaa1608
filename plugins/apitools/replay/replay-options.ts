// `vigil replay`'s command line, checked in full before anything is read or sent: every problem is a usage error.
import { tryParseDuration, type CommandArgs } from '@vigil/plugin-sdk';
import type { HeaderOverrides } from './replay-plan.js';
import { parseRate } from './token-bucket.js';

export const REPLAY_USAGE = 'vigil replay -config FILE --target URL [--since 1d] [--limit N] [--methods GET,HEAD,OPTIONS] [--rate 10/s] '
  + '[--concurrency 4] [--diff status|shape] [--max-changed N|P%] [--timeout 10s] [--header \'Name: value\']… '
  + '[--format text|json|markdown] [--force]';

export const DEFAULTS = { limit: 1000, methods: ['GET', 'HEAD', 'OPTIONS'], rate: '10/s', concurrency: 4, timeout: '10s', maxChanged: '0' };

export interface ReplayOptions {
  config: string;
  target: URL;
  /** Epoch ms; 0 for every stored record. */
  since: number;
  limit: number;
  methods: Set<string>;
  perSecond: number;
  concurrency: number;
  diff: 'status' | 'shape';
  /** The most changes that still pass: a count, or a share of the compared requests. */
  maxChanged: { count: number } | { percent: number };
  maxChangedText: string;
  timeoutMs: number;
  headers: HeaderOverrides;
  format: 'text' | 'json' | 'markdown';
  force: boolean;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const METHOD = /^[A-Z]+$/;
/** Headers whose override would break the exchange itself: the client sets them from the body and the connection. */
const NOT_OVERRIDABLE = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer']);

/** The options, or the reason the command line is wrong. */
export function parseReplayOptions(args: CommandArgs, now = Date.now()): ReplayOptions | string {
  const f = args.flags;
  if (args.positionals.length > 0) return `unexpected argument "${args.positionals[0]}"`;
  const str = (name: string): string | undefined => (typeof f[name] === 'string' ? (f[name] as string) : undefined);
  const config = str('config');
  if (config === undefined) return 'give -config FILE (the config of the `vigil run` whose records to replay)';
  const targetText = str('target');
  if (targetText === undefined) return 'give --target URL (the staging server to replay against)';
  let target: URL;
  try {
    target = new URL(targetText);
  } catch {
    return `--target takes an http(s) URL, got ${targetText}`;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `--target takes an http(s) URL, got ${targetText}`;
  if (target.search !== '' || target.hash !== '') return '--target takes no query or fragment (a path there prefixes every request)';
  if (target.username !== '' || target.password !== '') return '--target takes no credentials; send them with --header \'Authorization: …\'';

  let since = 0;
  if (f.since !== undefined) {
    const ms = tryParseDuration(str('since'));
    if (ms === undefined || ms <= 0) return `--since takes a duration such as 1d, 12h or 30m, got ${String(f.since)}`;
    since = now - ms;
  }
  const limit = f.limit === undefined ? DEFAULTS.limit : Number(f.limit);
  if (!Number.isInteger(limit) || limit < 1) return `--limit takes a positive whole number, got ${String(f.limit)}`;

  const methodList = (str('methods') ?? DEFAULTS.methods.join(',')).split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
  if (methodList.length === 0 || methodList.some((m) => !METHOD.test(m))) return `--methods takes a list such as GET,HEAD,OPTIONS, got ${String(f.methods)}`;

  const perSecond = parseRate(str('rate') ?? DEFAULTS.rate);
  if (perSecond === undefined) return `--rate takes requests per second, minute or hour such as 20/s or 600/m, got ${String(f.rate)}`;
  const concurrency = f.concurrency === undefined ? DEFAULTS.concurrency : Number(f.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) return `--concurrency takes a whole number from 1 to 256, got ${String(f.concurrency)}`;

  const diff = str('diff') ?? 'status';
  if (diff !== 'status' && diff !== 'shape') return `--diff is status or shape, got ${String(f.diff)}`;
  const maxChangedText = str('max-changed') ?? DEFAULTS.maxChanged;
  const maxChanged = parseMaxChanged(maxChangedText);
  if (!maxChanged) return `--max-changed takes a count (3) or a percentage (5%), got ${String(f['max-changed'])}`;
  const timeoutMs = tryParseDuration(str('timeout') ?? DEFAULTS.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0 || timeoutMs > 3_600_000) return `--timeout takes a duration from 1ms to 1h such as 10s, got ${String(f.timeout)}`;

  const headers: HeaderOverrides = new Map();
  for (const line of args.lists?.header ?? (typeof f.header === 'string' ? [f.header] : [])) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    const value = colon < 0 ? '' : line.slice(colon + 1).trim();
    if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) return `--header takes 'Name: value', got ${JSON.stringify(line)}`;
    if (NOT_OVERRIDABLE.has(name.toLowerCase())) return `--header cannot set ${name}: the replay sets it from the body and the connection`;
    headers.set(name.toLowerCase(), { name, value });
  }

  const format = str('format') ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'markdown') return `--format is text, json or markdown, got ${String(f.format)}`;
  return {
    config, target, since, limit, methods: new Set(methodList), perSecond, concurrency, diff, maxChanged, maxChangedText,
    timeoutMs, headers, format, force: f.force === true,
  };
}

function parseMaxChanged(text: string): ReplayOptions['maxChanged'] | undefined {
  const m = /^([0-9]+(?:\.[0-9]+)?)(%?)$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (m[2] === '%') return n <= 100 ? { percent: n } : undefined;
  return Number.isInteger(n) ? { count: n } : undefined;
}

/** Why the replay fails (exit 1), or null: more changes than allowed, or a target that answered nothing at all. */
export function failureOf(options: ReplayOptions, t: { replayed: number; same: number; changed: number; errors: number }): string | null {
  const compared = t.same + t.changed;
  if ('count' in options.maxChanged) {
    if (t.changed > options.maxChanged.count) return `${t.changed} changed, more than --max-changed ${options.maxChangedText}`;
  } else if (compared > 0 && (t.changed / compared) * 100 > options.maxChanged.percent) {
    const share = ((t.changed / compared) * 100).toFixed(1);
    return `${t.changed} of ${compared} compared changed (${share}%), more than --max-changed ${options.maxChangedText}`;
  }
  if (t.replayed > 0 && t.errors === t.replayed) return `the target answered none of the ${t.replayed} requests sent`;
  return null;
}

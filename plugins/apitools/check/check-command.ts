// `vigil check`: does any live client still use a field about to be removed? Reads the fields `vigil run`
// observed (capture_fields) in the store of `-config FILE`. Exit 1 when any field is used (the seed's rule, for CI),
// 0 when none is, 2 on a usage error.
import { tryParseDuration, type CommandArgs, type CommandIo, type CommandStore } from '@vigil/plugin-sdk';
import { readFieldList } from './field-list.js';
import { fieldSpec, FIELD_SYNTAX, type FieldSpec } from './field-spec.js';
import { fieldUsage, type FieldUsage } from './field-usage.js';

export const CHECK_USAGE = `vigil check -config FILE ('METHOD /path' FIELD | --fields FILE) [--since 30d] [--format text|json]

FIELD: ${FIELD_SYNTAX}.
--fields FILE: one "METHOD /path FIELD" per line (# comments), or a .yaml/.json file with
  fields: [{ route: "POST /api/users", field: "$.legacy_id" }, …]`;

const LOCATIONS: Record<string, string> = {
  request_body: 'request body', response_body: 'response body', query: 'query parameter', request_header: 'request header',
  response_header: 'response header', path: 'path parameter',
};

export async function runCheck(args: CommandArgs, io: CommandIo): Promise<number> {
  const usage = (why: string) => { io.err(`vigil check: ${why}\n\nUsage: ${CHECK_USAGE}\n`); return 2; };
  const { config, fields: list, since, format = 'text' } = args.flags;
  if (typeof config !== 'string') return usage('-config FILE is required (the config of the `vigil run` whose store to read)');
  if (format !== 'text' && format !== 'json') return usage(`--format is text or json, got ${String(format)}`);
  let sinceMs: number | null = null;
  if (since !== undefined) {
    // A bare number would be milliseconds: too easy to mistake for days.
    sinceMs = typeof since === 'string' && /[a-z]$/i.test(since.trim()) ? tryParseDuration(since) ?? null : null;
    if (sinceMs === null) return usage(`--since takes a duration such as 30d, 12h or 90m, got ${String(since)}`);
  }
  let specs: FieldSpec[];
  if (list !== undefined) {
    if (typeof list !== 'string') return usage('--fields takes a FILE');
    if (args.positionals.length) return usage('give either a route and a field, or --fields FILE, not both');
    const read = await readFieldList(list, io);
    if ('error' in read) return usage(read.error);
    specs = read;
  } else {
    if (args.positionals.length !== 2) return usage(`give a route and a field ('POST /api/users' '$.legacy_id'), or --fields FILE`);
    const spec = fieldSpec(args.positionals[0], args.positionals[1]);
    if ('error' in spec) return usage(spec.error);
    specs = [spec];
  }

  let opened: CommandStore;
  try {
    opened = await io.openStore(config, 'capture');
  } catch (err) {
    const described = io.config.describe(err);
    if (described) { io.err(described); return 2; }
    io.err(`vigil check: ${(err as Error).message}\n`);
    return 2;
  }
  const now = Date.now();
  let usages: FieldUsage[];
  try {
    usages = await fieldUsage(opened.store, specs, sinceMs === null ? 0 : now - sinceMs);
  } catch (err) {
    io.err(`vigil check: reading the store failed: ${(err as Error).message}\n`);
    return 2;
  } finally {
    await opened.close();
  }
  const used = usages.filter((u) => u.count > 0).length;
  const window = sinceMs === null ? null : new Date(now - sinceMs).toISOString();
  io.out(format === 'json' ? jsonReport(usages, window, used) : textReport(usages, window, used));
  return used > 0 ? 1 : 0;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function jsonReport(usages: readonly FieldUsage[], since: string | null, used: number): string {
  return `${JSON.stringify({
    since, used, checked: usages.length,
    fields: usages.map((u) => ({
      route: u.spec.route, field: u.spec.field, route_template: u.spec.routeKey, location: u.spec.location, name: u.spec.name,
      used: u.count > 0, count: u.count, redacted: u.redacted, last_seen: iso(u.lastSeen), route_seen: u.routeSeen,
    })),
  }, null, 2)}\n`;
}

function textReport(usages: readonly FieldUsage[], since: string | null, used: number): string {
  const lines = usages.map((u) => {
    const what = `${u.spec.routeKey}  ${u.spec.name} (${LOCATIONS[u.spec.location]})`;
    if (u.count > 0) {
      const masked = u.redacted > 0 ? `, ${u.redacted} of them redacted` : '';
      return `USED    ${what}: ${u.count} time${u.count === 1 ? '' : 's'}${masked}, last seen ${iso(u.lastSeen)}`;
    }
    return `unused  ${what}${u.routeSeen ? '' : `: the route was never seen${since ? ' in this window' : ''}`}`;
  });
  const window = since ? ` since ${since}` : ' within the store\'s retention';
  lines.push('', `${used} of ${usages.length} field${usages.length === 1 ? '' : 's'} used${window}.`);
  return `${lines.join('\n')}\n`;
}

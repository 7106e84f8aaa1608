// Rules and try results in words: the badges and sentences the Policy page shows, a rule as the YAML that writes
// it, and the headers typed into the try panel. Pure functions (tested in Node). Text in `backticks` is code.
import type { Tone } from '../../components/stat.js';
import type { PolicyRule, RestrictPart, TryResult } from './policy-api.js';

export interface RuleBadge {
  kind: 'restrict' | 'redact' | 'label' | 'sample' | 'meter' | 'wasm';
  text: string;
  tone: Tone;
  /** What the badge means, in a sentence. */
  title: string;
}

const PARTS: Record<RestrictPart, string> = { request_body: 'request bodies', response_body: 'response bodies', headers: 'headers' };

const DETECTORS: Record<string, string> = {
  card_number: 'card numbers', iban: 'IBANs', email: 'email addresses', jwt: 'JWTs', aws_access_key_id: 'AWS access key ids',
  private_key: 'private keys', bearer_token: 'bearer tokens', api_key: 'API keys', us_ssn: 'US social security numbers',
};

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const codes = (items: readonly string[]): string => listText(items.map((i) => `\`${i}\``));
const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);

/** A share as people say it: 10 %, 0.5 %, 33.3 %. */
export function shareText(ratio: number): string {
  const pct = ratio * 100;
  return `${Number.isInteger(pct) ? pct : Number(pct.toPrecision(3))} %`;
}

/** What the rule matches: "any method on `/**`", "GET and POST on `/api/**`". */
export function matchText(rule: PolicyRule): string {
  const methods = rule.match.methods?.map((m) => m.toUpperCase());
  return `${methods?.length ? listText(methods) : 'any method'} on \`${rule.match.path}\``;
}

const redactCount = (rule: PolicyRule): number => {
  const r = rule.redact ?? {};
  return (r.headers?.length ?? 0) + (r.query_params?.length ?? 0) + (r.json_fields?.length ?? 0) + (r.detect?.length ?? 0);
};

/** The rule's actions as badges, in the order the page shows them. */
export function ruleBadges(rule: PolicyRule): RuleBadge[] {
  const out: RuleBadge[] = [];
  if (rule.restrict?.length) {
    out.push({ kind: 'restrict', text: 'restrict', tone: 'danger', title: `Never captures ${listText(rule.restrict.map((p) => PARTS[p]))}` });
  }
  const redactions = redactCount(rule);
  if (redactions) out.push({ kind: 'redact', text: 'redact', tone: 'warning', title: `Masks ${redactions} ${plural(redactions, 'kind of value', 'kinds of value')}` });
  const labels = Object.keys(rule.labels ?? {});
  if (labels.length) out.push({ kind: 'label', text: 'label', tone: 'accent', title: `Labels requests with ${listText(labels)}` });
  if (rule.sample !== undefined || rule.keep_errors) {
    const text = rule.sample !== undefined ? `sample ${shareText(rule.sample)}` : 'keep errors';
    out.push({ kind: 'sample', text, tone: 'neutral', title: rule.sample !== undefined ? `Keeps the bodies of ${shareText(rule.sample)} of requests` : 'Keeps the bodies of failed requests' });
  }
  if (rule.meter?.tokens) out.push({ kind: 'meter', text: 'meter', tone: 'neutral', title: `Meters tokens from ${rule.meter.tokens}` });
  if (rule.wasm) out.push({ kind: 'wasm', text: 'wasm', tone: 'accent', title: `Runs the WASM policy ${rule.wasm}` });
  return out;
}

/** What the rule does, one sentence per action; a rule with none says so. */
export function ruleSentences(rule: PolicyRule): string[] {
  const out: string[] = [];
  if (rule.restrict?.length) out.push(`Never captures ${listText(rule.restrict.map((p) => PARTS[p]))}: they are not even copied.`);
  const r = rule.redact ?? {};
  if (r.headers?.length) out.push(`Masks the ${plural(r.headers.length, 'header', 'headers')} ${codes(r.headers)}, in requests and responses.`);
  if (r.query_params?.length) out.push(`Masks the query ${plural(r.query_params.length, 'parameter', 'parameters')} ${codes(r.query_params)}.`);
  if (r.json_fields?.length) out.push(`Masks the JSON ${plural(r.json_fields.length, 'field', 'fields')} ${codes(r.json_fields)} in both bodies.`);
  if (r.detect?.length) out.push(`Masks ${listText(r.detect.map((d) => DETECTORS[d] ?? d))} wherever they appear: path, query, headers, labels and bodies.`);
  for (const [name, source] of Object.entries(rule.labels ?? {})) {
    const header = source.replace(/^header:/, '');
    out.push(`Labels each request \`${name}\` with the value of the header \`${header}\`.`);
  }
  const errors = rule.keep_errors ? ' and of every failed one (5xx or no answer)' : '';
  if (rule.sample !== undefined) {
    out.push(rule.sample === 0 && !rule.keep_errors
      ? 'Keeps no bodies: headers, query and metadata only.'
      : `Keeps the bodies of ${shareText(rule.sample)} of requests${errors}.`);
  } else if (rule.keep_errors) {
    out.push('Keeps the bodies of failed requests (5xx or no answer), whatever the sampling.');
  }
  if (rule.meter?.tokens) out.push(`Meters tokens from \`${rule.meter.tokens}\` (the response body, else the request body).`);
  if (rule.wasm) out.push(`Runs the WASM policy \`${rule.wasm}\` on the telemetry lane: it can only narrow capture, mask and label more.`);
  if (out.length === 0) out.push('Takes nothing away: the requests it matches are captured in full, and named by it in matched_rules.');
  return out;
}

const RESERVED = /^(?:true|false|null|yes|no|on|off|~|[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|\.inf|\.nan)$/i;

/** A YAML scalar: plain when that reads back as the same string, double-quoted (JSON is valid YAML) otherwise. */
export function yamlScalar(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const plain = /^[A-Za-z0-9_./$(-][A-Za-z0-9_./$*:()[\]-]*$/.test(value) && !RESERVED.test(value) && !/:$|\[|\]/.test(value);
  return plain ? value : JSON.stringify(value);
}

const flowList = (items: readonly (string | number)[]): string => `[${items.map((i) => yamlScalar(i)).join(', ')}]`;

/** The rule as the config file would write it (a list item of `rules:`), for reading and copying. */
export function ruleYaml(rule: PolicyRule): string {
  const lines = [`- name: ${yamlScalar(rule.name)}`, '  match:', `    path: ${yamlScalar(rule.match.path)}`];
  if (rule.match.methods?.length) lines.push(`    methods: ${flowList(rule.match.methods)}`);
  if (rule.restrict?.length) lines.push(`  restrict: ${flowList(rule.restrict)}`);
  const redact = Object.entries(rule.redact ?? {}).filter(([, v]) => v && v.length);
  if (redact.length) {
    lines.push('  redact:');
    for (const [key, list] of redact) lines.push(`    ${key}: ${flowList(list as string[])}`);
  }
  const labels = Object.entries(rule.labels ?? {});
  if (labels.length) {
    lines.push('  labels:');
    for (const [name, source] of labels) lines.push(`    ${yamlScalar(name)}: ${yamlScalar(source)}`);
  }
  if (rule.sample !== undefined) lines.push(`  sample: ${rule.sample}`);
  if (rule.keep_errors !== undefined) lines.push(`  keep_errors: ${rule.keep_errors}`);
  if (rule.meter?.tokens) lines.push('  meter:', `    tokens: ${yamlScalar(rule.meter.tokens)}`);
  if (rule.wasm) lines.push(`  wasm: ${yamlScalar(rule.wasm)}${rule.wasm_sha256 ? `   # sha256 ${rule.wasm_sha256.slice(0, 12)}…` : ''}`);
  return lines.join('\n');
}

/** Headers typed one per line as `Name: value`; a repeated name becomes a list, in order. */
export function parseHeaderLines(text: string): { headers: Record<string, string | string[]> } | { error: string } {
  const headers: Record<string, string | string[]> = {};
  const spelled = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      return { error: `Line ${i + 1}: write one header per line, as Name: value (the name without spaces).` };
    }
    const value = line.slice(colon + 1).trim();
    const key = spelled.get(name.toLowerCase()) ?? name;
    spelled.set(name.toLowerCase(), key);
    const had = headers[key];
    headers[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return { headers };
}

/** "the request body is", "the request and response bodies are", "the headers are": the subject of "not stored". */
function storedParts(parts: readonly RestrictPart[]): string {
  const bodies = parts.filter((p) => p !== 'headers');
  const words: string[] = [];
  if (bodies.length === 2) words.push('the request and response bodies');
  else if (bodies.length === 1) words.push(`the ${bodies[0] === 'request_body' ? 'request' : 'response'} body`);
  if (parts.includes('headers')) words.push('the headers');
  return `${listText(words)} ${words.length === 1 && bodies.length === 1 ? 'is' : 'are'}`;
}

export interface Explanation {
  tone: Tone;
  /** One sentence; `backticks` mark code. */
  text: string;
}

/**
 * What the policy did to a tried request, in plain words: which rules matched, what was restricted and by which
 * rule, what was masked, labelled, sampled, metered and dropped, and what a try does not run.
 */
export function explainTry(result: TryResult, rules: readonly PolicyRule[]): Explanation[] {
  const byName = new Map(rules.map((r) => [r.name, r]));
  const matched = result.matched_rules.map((n) => byName.get(n)).filter((r): r is PolicyRule => r !== undefined);
  const out: Explanation[] = [];
  if (result.matched_rules.length === 0) {
    out.push({ tone: 'neutral', text: 'No rule matched: the request would be captured in full, with nothing masked.' });
  } else {
    const route = result.route[result.route.length - 1];
    out.push({
      tone: 'accent',
      text: `Matched ${plural(result.matched_rules.length, 'rule', 'rules')} ${codes(result.matched_rules)}` +
        `${result.matched_rules.length > 1 ? ' (every matching rule applies, top to bottom)' : ''}; filed under the route \`${route}\`.`,
    });
  }
  const restricting = new Map<string, RestrictPart[]>();
  for (const part of ['request_body', 'response_body', 'headers'] as const) {
    for (const name of result.restricted[part]) restricting.set(name, [...(restricting.get(name) ?? []), part]);
  }
  for (const [name, parts] of restricting) {
    const glob = byName.get(name)?.match.path;
    out.push({ tone: 'danger', text: `Restricted: ${storedParts(parts)} not stored because rule \`${name}\` restricts ${glob ? `\`${glob}\`` : 'this route'}.` });
  }
  const redactors = matched.filter((r) => redactCount(r) > 0).map((r) => r.name);
  if (result.redacted > 0) {
    // Masking is the policy working: information, not a warning.
    out.push({
      tone: 'neutral',
      text: `Masked: ${result.redacted} ${plural(result.redacted, 'value is', 'values are')} stored as [REDACTED]` +
        (redactors.length ? `, by the redactions of ${codes(redactors)}.` : '.'),
    });
  } else if (redactors.length) {
    out.push({ tone: 'neutral', text: `Nothing masked: the redactions of ${codes(redactors)} found no value in this request.` });
  }
  const labels = Object.entries(result.record.labels);
  if (labels.length) out.push({ tone: 'neutral', text: `Labelled: ${labels.map(([k, v]) => `\`${k}\` = \`${v}\``).join(', ')}.` });
  const { sampling } = result;
  const by = sampling.rule ? `rule \`${sampling.rule}\`` : 'the policy';
  if (!sampling.kept) {
    out.push({ tone: 'warning', text: `Bodies not kept: ${by} keeps the bodies of ${shareText(sampling.rate)} of requests${sampling.keep_errors ? ', and of failed ones' : ''}. Headers, query and metadata are stored.` });
  } else if (sampling.rate < 1) {
    const why = sampling.rate === 0 ? ' This one failed, and a matching rule keeps the bodies of failed requests.' : ' A try shows a request whose bodies are kept.';
    out.push({ tone: 'neutral', text: `Sampled: ${by} keeps the bodies of ${shareText(sampling.rate)} of requests.${why}` });
  }
  if (result.record.dropped_reason) out.push({ tone: 'warning', text: `Dropped: ${result.record.dropped_reason}.` });
  if (result.record.tokens !== null) out.push({ tone: 'neutral', text: `Metered: ${result.record.tokens} tokens.` });
  for (const { rule, module } of result.wasm_not_applied) {
    out.push({
      tone: 'neutral',
      text: `Not run here: rule \`${rule}\`'s WASM policy \`${module}\`. The gateway applies it on top of this record (it can only narrow capture, mask and label more); \`vigil policy test\` runs it offline.`,
    });
  }
  return out;
}

// What a Go app's records may differ in from the corpus's, and nothing else (middleware/go/README.md, "What
// differs"): net/http writes a response's header fields sorted by name, whatever order the app set them in, so
// `response_headers` is compared whatever its key order (the request's fields are read off the connection in the
// order they came: the app serves with the middleware's Listener and ConnContext); a Brotli-encoded body is dropped,
// with its reason, where the TypeScript engine decodes it.
import { parse } from 'yaml';
import { compilePolicy, type CompiledPolicy } from '../../policies/compile.js';
import type { RuleConfig } from '../../policies/schema.js';
import { responseHeadersSorted } from './json-header-order.js';
import type { Corpus, CorpusEntry } from './governance-corpus/corpus-file.js';
import type { Mismatch } from './governance-corpus/record-match.js';

/** `expected` as the Go middleware records the case, by the differences above. */
function asGoRecords(c: CorpusEntry, expected: string, policy: CompiledPolicy): string {
  let text = expected;
  const encoding = c.response.headers.find(([n]) => n.toLowerCase() === 'content-encoding')?.[1];
  if (encoding?.toLowerCase() === 'br') {
    const record = JSON.parse(text) as { response_body: unknown; dropped_reason: string | null };
    if (record.response_body !== null) {
      const at = text.indexOf('"response_body":');
      const end = text.indexOf(',"labels":', at);
      const required = policy.decide(c.request.method, c.request.target).jsonFields.length > 0;
      text = `${text.slice(0, at)}"response_body":null${text.slice(end)}`
        .replace('"dropped_reason":null', `"dropped_reason":${JSON.stringify(`response_body: unsupported content-encoding br${required ? ' where json_fields redaction applies' : ''}`)}`);
    }
  }
  return responseHeadersSorted(text);
}

/** The mismatches the differences above do not explain, and how many records differed in those ways only. */
export function goRecordDifferences(corpus: Corpus, mismatches: readonly Mismatch[]): { remaining: Mismatch[]; responseHeaderOrderOnly: number } {
  const byName = new Map(corpus.cases.map((c) => [c.name, c]));
  const policies = new Map(Object.entries(corpus.configs).map(([name, text]) => [
    name, compilePolicy({ rules: (parse(text) as { rules: RuleConfig[] }).rules }),
  ]));
  const expected = new Map<string, Mismatch[]>();
  const actual: Mismatch[] = [];
  for (const m of mismatches) {
    const c = byName.get(m.case.replace(/^\[[^\]]*\] /, ''));
    if (m.expected !== null && c !== undefined) {
      const key = asGoRecords(c, m.expected, policies.get(c.config)!);
      expected.set(key, [...(expected.get(key) ?? []), m]);
    }
    if (m.actual !== null) actual.push(m);
  }
  let responseHeaderOrderOnly = 0;
  const explained = new Set<Mismatch>();
  for (const m of actual) {
    const list = expected.get(responseHeadersSorted(m.actual!));
    const hit = list?.find((e) => !explained.has(e));
    if (hit === undefined) continue;
    explained.add(hit);
    explained.add(m);
    responseHeaderOrderOnly++;
  }
  return { remaining: mismatches.filter((m) => !explained.has(m)), responseHeaderOrderOnly };
}

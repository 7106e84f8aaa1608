// The governance conformance corpus (tests/fixtures/governance-corpus/corpus.json) is what the case definitions and
// the engine make of them now: regenerated here and compared, so a change of the engine or of a case that is not
// written into the file fails, with the command that rewrites it.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusText, CORPUS_PATH, REGENERATE } from '../../support/governance-corpus/build-corpus.js';
import { normalizeRecord } from '../../support/governance-corpus/normalize-record.js';
import { matchRecords } from '../../support/governance-corpus/record-match.js';
import type { CorpusEntry } from '../../support/governance-corpus/corpus-file.js';
import { fromRoot } from '../../support/paths.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMiddlewarePolicy } from '../../../middleware/core/load-policy.js';
import { readIngestBody } from '../../../gateway/records/ingest-body.js';
import { regovernRecords } from '../../../gateway/govern/govern-worker.js';
import { recordJson } from '../../../gateway/records/governed-record.js';
import type { GovernTask } from '../../../gateway/govern/types.js';

interface CorpusFile {
  version: number;
  configs: Record<string, string>;
  cases: { name: string; family: string; config: string; record: string | null }[];
}

const stored = readFileSync(fromRoot(CORPUS_PATH), 'utf8');
const corpus = JSON.parse(stored) as CorpusFile;

test('corpus.json is what the cases and the engine make now', async () => {
  const fresh = await corpusText();
  if (fresh !== stored) {
    const was = JSON.parse(stored) as CorpusFile;
    const now = JSON.parse(fresh) as CorpusFile;
    const byName = new Map(was.cases.map((c) => [c.name, JSON.stringify(c)]));
    const changed = now.cases.filter((c) => byName.get(c.name) !== JSON.stringify(c)).map((c) => c.name);
    assert.unreachable(`${CORPUS_PATH} is stale (${changed.length} case(s) differ, e.g. ${JSON.stringify(changed.slice(0, 3))}`
      + `${now.cases.length !== was.cases.length ? `; ${was.cases.length} cases stored, ${now.cases.length} now` : ''}). Regenerate it: ${REGENERATE}`);
  }
});

test('the corpus covers every family, with 100+ cases, unique names, and configs that exist', () => {
  assert.is(corpus.version, 1);
  assert.ok(corpus.cases.length >= 100, `${corpus.cases.length} cases`);
  assert.is(new Set(corpus.cases.map((c) => c.name)).size, corpus.cases.length);
  const families = new Set(corpus.cases.map((c) => c.family));
  for (const f of ['path fold', 'globs', 'methods', 'json paths', 'headers', 'query parameters', 'restrict', 'sample', 'keep_errors',
    'labels', 'meter', 'detectors', 'truncation', 'text bodies', 'binary bodies', 'gzip bodies', 'malformed JSON', 'framing', 'no record']) {
    assert.ok(families.has(f), `no case of the family ${f}`);
  }
  for (const c of corpus.cases) assert.ok(corpus.configs[c.config] !== undefined, `${c.name}: config ${c.config}`);
  assert.ok(corpus.cases.filter((c) => c.record === null).length >= 3, 'cases that make no record');
});

test('every stored record is normalized: id "", time 0, duration_ms 0, and normalizing again changes nothing', () => {
  for (const c of corpus.cases) {
    if (c.record === null) continue;
    assert.ok(c.record.startsWith('{"id":"","time":0,"method":'), c.name);
    assert.match(c.record, /,"duration_ms":0,"headers":/);
    assert.is(normalizeRecord(c.record), c.record, c.name);
  }
});

test('normalizeRecord replaces only the three values, even when a query key or a body spells them', () => {
  const text = '{"id":"0190","time":1700000000000,"method":"GET","path":"/a","route":["/**"],"query":{"a":"1","duration_ms":"9"},'
    + '"status":200,"duration_ms":12.5,"headers":null,"response_headers":null,"request_body":{"time" : 5,"id":"x"},"response_body":null,'
    + '"labels":{},"matched_rules":["all"],"tokens":null,"sampled":true,"truncated":false,"partial":false,"dropped_reason":null,"error":null}';
  assert.is(normalizeRecord(text), text.replace('"0190"', '""').replace('1700000000000', '0').replace('12.5', '0'));
  assert.throws(() => normalizeRecord('{"time":1,"id":"x"}'), /not a record/);
});

test('the agent\'s floor with the same config stores every record as the middleware sent it (one exception, by design)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-corpus-floor-'));
  const changed: string[] = [];
  try {
    for (const [name, text] of Object.entries(corpus.configs)) {
      writeFileSync(join(dir, 'vigil.yaml'), text);
      const policy = loadMiddlewarePolicy(join(dir, 'vigil.yaml'), {}, dir);
      const cases = corpus.cases.filter((c) => c.config === name && c.record !== null);
      const batch = `{"records":[${cases.map((c, i) => storedOf(c, i).replace(`"id":"id-${i}"`, `"id":"0190b6a0-0000-7000-8000-${String(i).padStart(12, '0')}"`)).join(',')}]}`;
      const body = readIngestBody(Buffer.from(batch));
      if (!('records' in body)) throw new Error(`${name}: ${body.invalid}`);
      const outcomes = regovernRecords({ policy: policy.telemetry as GovernTask['policy'], records: body.records, bodyTexts: body.bodyTexts }).records;
      outcomes.forEach((o, i) => {
        if (o.restricted || o.reasons.length > 0 || normalizeRecord(recordJson(o.record)) !== cases[i].record) changed.push(cases[i].name);
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A JSON string document looks like a text body in a record, and the floor drops text where json_fields apply.
  assert.equal(changed, ['json paths: a JSON string document where $.password applies is kept']);
});

/** A stored record of `c`: its expected text with an id, a time and a duration, as a store holds it. */
const storedOf = (c: { record: string | null }, n: number) => c.record!.replace('{"id":"","time":0,', `{"id":"id-${n}","time":${1700000000000 + n},`).replace('"duration_ms":0,', `"duration_ms":${n}.5,`);

test('matchRecords: records in any order pass; a changed, missing or extra record is named with its case', () => {
  const cases = (corpus.cases as unknown as CorpusEntry[]).filter((c) => c.config === 'names');
  const stored = cases.map(storedOf).reverse();
  assert.equal(matchRecords(cases, stored), []);
  const changed = stored.map((t, i) => (i === 0 ? t.replace('"status":200', '"status":201') : t));
  const [m] = matchRecords(cases, changed);
  assert.is(m.case, cases[cases.length - 1].name);
  assert.match(m.diff, /values differ at status; first difference at character/);
  assert.equal(matchRecords(cases, stored.slice(1)).map((x) => [x.case, x.diff]), [[cases[cases.length - 1].name, 'expected a record; none was stored']]);
  const extra = matchRecords(cases, [...stored, stored[3]]);
  assert.equal(extra.map((x) => x.case), ['(no case)']);
  const spelled = stored.map((t) => t.replace('"response_body":{"ok":true}', '"response_body":{"ok": true}'));
  assert.match(matchRecords(cases, spelled)[0].diff, /same values, different text/);
});

test('matchRecords: a record where a case expects none is named', () => {
  const cases = (corpus.cases as unknown as CorpusEntry[]).filter((c) => c.config === 'paths');
  const vault = cases.find((c) => c.record === null)!;
  const other = cases.find((c) => c.record !== null && c.request.method === vault.request.method)!;
  const stray = storedOf(other, 1).replace(`"path":${JSON.stringify(JSON.parse(other.record!).path)}`, '"path":"/vault/keys"');
  const found = matchRecords(cases, [...cases.filter((c) => c.record !== null).map(storedOf), stray]);
  assert.equal(found.map((x) => [x.case, x.diff]), [[vault.name, 'expected no record; one was stored']]);
});

test.run();

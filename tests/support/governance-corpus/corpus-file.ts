// corpus.json as its consumers read it (tests/fixtures/governance-corpus/README.md).
import { readFileSync } from 'node:fs';
import { fixture } from '../paths.js';

export interface CorpusEntry {
  name: string;
  family: string;
  config: string;
  request: { method: string; target: string; headers: [string, string][]; body_base64?: string };
  response: { status: number; headers: [string, string][]; body_base64?: string };
  /** The normalized record, or null: this exchange makes no record. */
  record: string | null;
}

export interface Corpus {
  version: number;
  configs: Record<string, string>;
  cases: CorpusEntry[];
}

/** The corpus file in the repository. */
export const CORPUS_FILE = fixture('governance-corpus', 'corpus.json');

export function loadCorpus(file = CORPUS_FILE): Corpus {
  return JSON.parse(readFileSync(file, 'utf8')) as Corpus;
}

/** The cases of each config, in file order (the order an app answers them in). */
export function casesByConfig(corpus: Corpus, only?: (c: CorpusEntry) => boolean): Map<string, CorpusEntry[]> {
  const out = new Map<string, CorpusEntry[]>();
  for (const c of corpus.cases) {
    if (only !== undefined && !only(c)) continue;
    const list = out.get(c.config) ?? [];
    list.push(c);
    out.set(c.config, list);
  }
  return out;
}

export const bodyOf = (part: { body_base64?: string }): Buffer => Buffer.from(part.body_base64 ?? '', 'base64');

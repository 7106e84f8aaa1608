// `vigil review --sample FILE`: traffic written down instead of stored. A HAR 1.2 file (what browsers and proxies
// export), or a YAML/JSON file of requests in the `vigil test` case format, under `requests:` (no `name` or `expect`
// needed) or `cases:` (a `vigil test` cases file as it is). Each request becomes the record the gateway would store
// with no rule at all (same exchange builder and governance code as `vigil test`): every value as the client sent it.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandIo, JsonSchema } from '@vigil/plugin-sdk';
import { compilePolicy } from '../../../policies/compile.js';
import { governExchange } from '../../../gateway/govern/govern.js';
import { InputProblem } from '../policy-file.js';
import { harEntries } from '../scan/scan-sources.js';
import { caseExchange } from '../test-case-exchange.js';
import { bodyFormProblems } from '../test-command.js';
import { caseSchema, casesFileSchema, type TestCase } from '../test-cases-schema.js';
import type { ReviewInput } from './review-input.js';

const requestSchema: JsonSchema = {
  ...caseSchema,
  required: ['request'],
  properties: { ...(caseSchema.properties as Record<string, JsonSchema>), name: { type: 'string' } },
};

/** Schema of a sample file: `requests:` (case format, `name` and `expect` optional), or `cases:` (a cases file). */
export const sampleFileSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requests: { type: 'array', minItems: 1, items: requestSchema },
    cases: (casesFileSchema.properties as Record<string, JsonSchema>).cases,
  },
};

function isHar(text: string): boolean {
  if (!/^\s*\{/.test(text)) return false;
  try {
    const doc = JSON.parse(text) as { log?: unknown };
    return doc !== null && typeof doc === 'object' && doc.log !== undefined;
  } catch {
    return false;
  }
}

/** The requests of a sample file as review inputs; throws an InputProblem or a config error (exit 2). */
export async function sampleInputs(file: string, io: CommandIo): Promise<ReviewInput[]> {
  const path = resolve(io.cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputProblem(`${file}: cannot read the sample file: ${(err as Error).message}`);
  }
  if (isHar(text)) {
    try {
      return harEntries(text).map((e) => ({ ...e, stored: false }));
    } catch (err) {
      throw new InputProblem(`${file}: ${(err as Error).message}`);
    }
  }
  const loaded = io.config.load(path);
  loaded.validate([], sampleFileSchema, loaded.data);
  const key = loaded.data.requests !== undefined ? 'requests' : loaded.data.cases !== undefined ? 'cases' : null;
  if (key === null || (loaded.data.requests !== undefined && loaded.data.cases !== undefined)) {
    throw new InputProblem(`${file}: a sample file is a HAR 1.2 file, or lists its requests under "requests:" (or "cases:", a vigil test file), one of the two`);
  }
  const requests = loaded.data[key] as TestCase[];
  const problems = bodyFormProblems(loaded, key, requests, io.cwd);
  if (problems.length > 0) throw new InputProblem(problems.join('\n'));
  // No rule: the record holds what the client sent, bodies decoded as the workers decode them.
  const open = compilePolicy({ rules: [] });
  return requests.map((request, i) => {
    const { exchange, decision } = caseExchange(request, open, `sample-${i + 1}`);
    const record = governExchange(exchange, decision, { random: () => 0 });
    return { ...record, stored: false };
  });
}

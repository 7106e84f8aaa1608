// The Python client's TraceItem (clients/python/src/vigil_llm/trace_item.py) is generated from the server's item
// schema, as the Node client's check is: this test writes the module the schema defines (and fails when the committed
// one was out of date), so a field added, removed or retyped on the server cannot leave the Python types behind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { traceItemSchema } from '../../../plugins/llm/item-schema.js';
import { pythonTypedDictModule } from '../../../app/api-types/schema-to-python.js';
import { fromRoot } from '../../support/paths.js';

const FILE = 'clients/python/src/vigil_llm/trace_item.py';

/** The module as generated now. */
export function pythonTraceItem(): string {
  return pythonTypedDictModule(
    'The trace item of ``POST /v1/traces``, one element of ``{"traces": [...]}``.\n\nGenerated from traceItemSchema '
    + '(plugins/llm/item-schema.ts) by tests/unit/llm-client/trace-item-python.test.ts.\nDo not edit: run that test to write it again.',
    'TraceItem', traceItemSchema as never, { tokens: 'TraceTokens', prompt_template: 'PromptTemplateRef' },
  );
}

test(`${FILE} is the type plugins/llm/item-schema.ts defines`, () => {
  const text = pythonTraceItem();
  const path = fromRoot(FILE);
  const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (committed !== text) {
    writeFileSync(path, text);
    assert.unreachable(`${FILE} was out of date and has been written again: commit it`);
  }
});

test('the generated classes say what is required and name every field of the schema', () => {
  const text = pythonTraceItem();
  assert.match(text, /class _TraceItemRequired\(TypedDict\):\n {4}model: str {2}# minLength 1, maxLength 256\n/);
  assert.match(text, /class TraceItem\(_TraceItemRequired, total=False\):/);
  assert.match(text, /class TraceTokens\(TypedDict, total=False\):\n {4}input: int/);
  assert.match(text, /class _PromptTemplateRefRequired\(TypedDict\):\n {4}name: str.*\n {4}raw: str/);
  assert.match(text, /status: Literal\["ok", "error"\]/);
  for (const key of Object.keys((traceItemSchema as { properties: object }).properties)) assert.match(text, new RegExp(`\\n {4}${key}: `));
});

test.run();

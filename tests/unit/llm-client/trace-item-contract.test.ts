// The Node client's TraceItem is a copy (the package depends on no server code): it is checked against the server's
// item schema. This test writes the type the schema defines to trace-item.gen.ts (and fails when that file was out of
// date); trace-item-contract.ts asserts, at type level, that the client's type equals it, so `npm test`'s typecheck
// fails the moment either side changes without the other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { traceItemSchema } from '../../../plugins/llm/item-schema.js';
import { generatedModule } from '../../../app/api-types/schema-to-ts.js';
import { fromRoot } from '../../support/paths.js';

const FILE = 'tests/unit/llm-client/trace-item.gen.ts';

test(`${FILE} is the type plugins/llm/item-schema.ts defines`, () => {
  const text = generatedModule(
    'Generated from traceItemSchema (plugins/llm/item-schema.ts) by tests/unit/llm-client/trace-item-contract.test.ts.\nDo not edit: run that test to write it again.',
    { SchemaTraceItem: traceItemSchema },
  );
  const path = fromRoot(FILE);
  const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (committed !== text) {
    writeFileSync(path, text);
    assert.unreachable(`${FILE} was out of date and has been written again: run the typecheck, then commit it`);
  }
});

test.run();

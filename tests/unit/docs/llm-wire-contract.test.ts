// docs/llm-wire-contract.md is the contract every client is written from; its item schema, its 202 answer, its
// table of answers and its list of conformance cases are generated from the code they describe
// (tests/support/wire-contract-doc.ts). This test writes them again when they drifted, and fails so the change is
// seen and committed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { fromRoot } from '../../support/paths.js';
import { DRIVERS } from '../../support/conformance/drivers.js';
import { WIRE_CONTRACT_DOC, wireContractSections, withSections } from '../../support/wire-contract-doc.js';

const path = fromRoot(WIRE_CONTRACT_DOC);

test(`${WIRE_CONTRACT_DOC}'s generated sections are current`, () => {
  const text = readFileSync(path, 'utf8');
  const current = withSections(text, wireContractSections());
  if (current !== text) {
    writeFileSync(path, current);
    assert.unreachable(`${WIRE_CONTRACT_DOC} had drifted from the server's schema, its error catalogue or the conformance cases, ` +
      'and has been written again: review and commit it');
  }
});

test('the item schema section names every field, and the answers every status a client must handle', () => {
  const sections = wireContractSections();
  for (const field of ['model', 'id', 'tokens.input', 'tokens.cache_read', 'prompt_template.raw', 'metadata']) assert.match(sections['item-schema'], `| \`${field}\` |`);
  for (const status of ['202', '400', '401', '413', '415', '429', '503']) assert.match(sections.answers, `\n| ${status} |`);
});

test('the doc names every client the conformance suite runs, and the driver protocol\'s options', () => {
  const text = readFileSync(path, 'utf8');
  for (const d of DRIVERS) assert.match(text, `\`${d.name}\``);
  for (const option of ['max_batch_items', 'max_buffer_items', 'flush_interval_ms', 'max_retries', 'retry_base_ms', 'timeout_ms']) {
    assert.match(text, `"${option}"`);
  }
});

test.run();

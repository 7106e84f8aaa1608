import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkConsistency } from '../../../../plugins/exporters/pipeline.js';
import type { ExporterConfig } from '../../../../plugins/exporters/config-schema.js';
import { ExporterErrorCode } from '../../../../plugins/exporters/errors.js';

const file = (name: string): ExporterConfig => ({ name, type: 'file', path: `${name}.jsonl` });
const wasm = (name: string, next: string): ExporterConfig => ({ name, type: 'wasm', module: 'm.wasm', next });

function refused(configs: ExporterConfig[], message: string | RegExp): void {
  try {
    checkConsistency(configs);
    assert.unreachable('accepted');
  } catch (err) {
    assert.is((err as { code?: string }).code, ExporterErrorCode.config);
    assert.match((err as Error).message, message);
  }
}

test('a consistent list passes, including a chain of wasm stages', () => {
  checkConsistency([]);
  checkConsistency([file('a'), wasm('w1', 'w2'), wasm('w2', 'a')]);
});

test('duplicate names are refused, naming both items', () => {
  refused([file('a'), file('b'), file('a')], 'exporters[2].name: "a" is already the name of exporters[0]');
});

test('a topic outside the exportable list is refused even if the schema were bypassed', () => {
  refused([{ ...file('a'), topics: ['gateway.exchange' as 'gateway.record'] }], 'exporters[0].topics: "gateway.exchange" is not exportable');
});

test('wasm next must name another existing exporter, one wasm per next, and no loops', () => {
  refused([wasm('w', 'w')], 'exporters[0].next: a wasm exporter cannot feed itself');
  refused([file('a'), wasm('w', 'zz')], 'exporters[1].next: no exporter is named "zz"; exporters: a, w');
  refused([file('a'), wasm('w1', 'a'), wasm('w2', 'a')], 'exporters[2].next: "a" is already the next of wasm exporter "w1"');
  refused([wasm('w1', 'w2'), wasm('w2', 'w1')], /loop \(w1 -> w2 -> w1\)/);
});

test.run();

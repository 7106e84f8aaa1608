// systemctl's tables parsed from the fixtures in tests/fixtures/systemd (ORIGIN.txt there says which were captured and
// which are in systemd 252's format because the test machine does not run systemd).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import {
  parsePlainUnitFiles, parsePlainUnits, parseTimersJson, parseUnitFilesJson, parseUnitsJson,
} from '../../../../plugins/systools/services/unit-list.js';
import { fixture } from '../../../support/paths.js';

const read = (name: string) => readFileSync(fixture('systemd', name), 'utf8');

test('list-units: the JSON and the plain columns give the same rows; the ● of failed units is not a name', () => {
  const json = parseUnitsJson(read('list-units-service.json'));
  const plain = parsePlainUnits(read('list-units-service.txt'));
  assert.is(json.length, 9);
  assert.equal(plain, json);
  const failed = json.find((u) => u.active === 'failed')!;
  assert.is(failed.unit, 'postgresql@15-main.service');
  assert.is(failed.description, 'PostgreSQL Cluster 15-main');
  assert.is(json.find((u) => u.unit === 'ufw.service')!.load, 'not-found');
});

test('list-unit-files (captured here): JSON and plain agree on every state', () => {
  const json = parseUnitFilesJson(read('list-unit-files-service.json'));
  const plain = parsePlainUnitFiles(read('list-unit-files-service.txt'));
  assert.ok(json.size > 20, `${json.size} unit files`);
  assert.equal([...plain.entries()], [...json.entries()]);
  assert.is(json.get('cron.service'), 'enabled');
  assert.is(json.get('apt-daily.service'), 'static');
  assert.is(parseUnitFilesJson(read('list-unit-files-timer.json')).get('apt-daily.timer'), 'enabled');
});

test('list-timers: microsecond timestamps to ISO 8601; null, 0 and USEC_INFINITY are none', () => {
  const timers = parseTimersJson(read('list-timers.json'));
  assert.equal(timers[0], { unit: 'apt-daily.timer', activates: 'apt-daily.service', next: '2025-12-05T04:00:00.000Z', last: '2025-12-04T04:00:00.123Z' });
  assert.is(timers[1].last, null);
  assert.is(timers[2].next, null);
  assert.is(parseTimersJson('[{"unit":"x.timer","next":18446744073709551615,"last":0,"activates":"x.service"}]')[0].next, null);
});

test('text that is not systemctl\'s JSON is refused, so the plain columns are read instead', () => {
  assert.throws(() => parseUnitsJson('UNIT LOAD ACTIVE SUB DESCRIPTION'));
  assert.throws(() => parseUnitsJson('{"unit":"a"}'));
  assert.equal(parsePlainUnits(''), []);
});

test.run();

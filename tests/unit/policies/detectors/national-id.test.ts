import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bsnValid, dniValid, findNationalIds } from '../../../../policies/detectors/index.js';

const ids = suite('detectors: national ids');

ids('the DNI and NIE check letter', () => {
  assert.ok(dniValid('12345678Z'));
  assert.ok(dniValid('X1234567L'));
  assert.not.ok(dniValid('12345678A'), 'wrong letter');
  assert.not.ok(dniValid('1234567Z'), 'too short');
});

ids('the BSN 11-proof', () => {
  assert.ok(bsnValid('111222333'));
  assert.not.ok(bsnValid('111222334'));
  assert.not.ok(bsnValid('000000000'));
});

ids('found in text; 9 digits count as a BSN only under a BSN field name', () => {
  assert.equal(findNationalIds('dni 12345678Z ok').map((d) => d.kind), ['es_dni']);
  assert.equal(findNationalIds('ref 12345678A'), []);
  assert.equal(findNationalIds('111222333'), []);
  assert.equal(findNationalIds('111222333', 'bsn'), [{ kind: 'nl_bsn', start: 0, end: 9 }]);
  assert.equal(findNationalIds('111222334', 'customer_bsn'), []);
});

ids.run();

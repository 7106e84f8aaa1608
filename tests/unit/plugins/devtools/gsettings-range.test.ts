import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeValue, gvariantString, parseRange, readGvariantString, readValue } from '../../../../plugins/devtools/gnome/gsettings-range.js';

test('ranges as gsettings prints them', () => {
  assert.equal(parseRange('type b\n'), { kind: 'boolean' });
  assert.equal(parseRange('enum\n\'default\'\n\'prefer-dark\'\n\'prefer-light\'\n'), { kind: 'enum', choices: ['default', 'prefer-dark', 'prefer-light'] });
  assert.equal(parseRange('range d 0.5 3.0\n'), { kind: 'number', integer: false, min: 0.5, max: 3 });
  assert.equal(parseRange('type u\n'), { kind: 'number', integer: true, min: null, max: null });
  assert.equal(parseRange('type as\n'), { kind: 'other', text: 'type as' });
});

test('values are checked against the range and written as GVariant text', () => {
  const scale = parseRange('range d 0.5 3.0');
  assert.equal(encodeValue(scale, 1.25), { text: '1.25' });
  assert.equal(encodeValue(scale, 2), { text: '2.0' });
  assert.ok('problem' in encodeValue(scale, 9));
  assert.ok('problem' in encodeValue(scale, '1.5'));
  const scheme = parseRange('enum\n\'default\'\n\'prefer-dark\'');
  assert.equal(encodeValue(scheme, 'prefer-dark'), { text: "'prefer-dark'" });
  assert.ok('problem' in encodeValue(scheme, 'purple'));
  assert.equal(encodeValue({ kind: 'boolean' }, false), { text: 'false' });
  assert.ok('problem' in encodeValue({ kind: 'boolean' }, 'false'));
  assert.equal(encodeValue({ kind: 'string' }, "it's:close"), { text: "'it\\'s:close'" });
  assert.ok('problem' in encodeValue({ kind: 'string' }, 'a\nb'));
  assert.ok('problem' in encodeValue({ kind: 'other', text: 'type as' }, 'x'));
});

test('GVariant strings and values read back', () => {
  assert.is(readGvariantString(gvariantString("a'b\\c")), "a'b\\c");
  assert.is(readGvariantString('plain'), null);
  assert.is(readValue({ kind: 'boolean' }, 'true\n'), true);
  assert.is(readValue({ kind: 'number', integer: false, min: 0.5, max: 3 }, '1.0\n'), 1);
  assert.is(readValue({ kind: 'number', integer: true, min: null, max: null }, 'uint32 7\n'), 7);
  assert.is(readValue({ kind: 'string' }, "'appmenu:close'\n"), 'appmenu:close');
});

test.run();

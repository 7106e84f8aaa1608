import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configFormats } from '../../../../runtime/config/formats.js';

const accepts = (format: string, value: string) => configFormats[format].validate(value);

test('duration and byte-size follow the unit parsers', () => {
  assert.ok(accepts('duration', '10m'));
  assert.not.ok(accepts('duration', '10 minutes'));
  assert.ok(accepts('byte-size', '64kb'));
  assert.not.ok(accepts('byte-size', '64 kilobytes'));
});

test('storage-url takes sqlite: and postgres:// only', () => {
  assert.ok(accepts('storage-url', 'sqlite:./.vigil/vigil.db'));
  assert.ok(accepts('storage-url', 'postgres://user@host:5432/db'));
  assert.ok(accepts('storage-url', 'postgresql://host/db'));
  assert.not.ok(accepts('storage-url', 'mysql://host/db'));
  assert.not.ok(accepts('storage-url', 'sqlite:'));
});

test('allowed-host takes a bare host name or IP literal, or *; never a scheme, a port or a path', () => {
  for (const ok of ['vigil.example.com', 'localhost.', '192.168.1.5', '::1', '[::1]', '*']) assert.ok(accepts('allowed-host', ok), ok);
  for (const no of ['http://vigil.example.com', 'vigil.example.com:9095', '[::1]:9095', 'host/path', 'bad host', '', '*.example.com']) {
    assert.not.ok(accepts('allowed-host', no), no);
  }
});

test('common JSON Schema formats', () => {
  assert.ok(accepts('uri', 'https://example.com/hook'));
  assert.not.ok(accepts('uri', 'example.com/hook'));
  assert.ok(accepts('email', 'ops@example.com'));
  assert.not.ok(accepts('email', 'ops@'));
  assert.ok(accepts('ipv4', '10.0.0.1'));
  assert.not.ok(accepts('ipv4', '10.0.0.256'));
  assert.ok(accepts('ipv6', '::1'));
  assert.not.ok(accepts('ipv6', '10.0.0.1'));
  assert.ok(accepts('hostname', 'db.internal'));
  assert.not.ok(accepts('hostname', 'bad host'));
  assert.ok(accepts('date-time', '2024-05-31T12:00:00Z'));
  assert.not.ok(accepts('date-time', '2024-05-31'));
  assert.ok(accepts('date', '2024-05-31'));
  assert.ok(accepts('uuid', '123e4567-e89b-12d3-a456-426614174000'));
  assert.ok(accepts('regex', '^a+$'));
  assert.not.ok(accepts('regex', '('));
});

test('every format says what it expects', () => {
  for (const [name, format] of Object.entries(configFormats)) assert.ok(format.expected.length > 3, name);
});

test.run();

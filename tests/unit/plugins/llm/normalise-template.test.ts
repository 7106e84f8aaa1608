import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normaliseTemplate, templateHash } from '../../../../plugins/llm/normalise-template.js';

test('CRLF becomes LF, trailing whitespace goes from each line, outer blank lines go', () => {
  assert.is(normaliseTemplate('\r\n  \r\nHello {{name}}  \t\r\n\r\n  Be brief.\r\n\r\n \n'), 'Hello {{name}}\n\n  Be brief.');
});

test('indentation, inner blank lines and a lone CR inside a line are kept; only CRLF is a line break to rewrite', () => {
  assert.is(normaliseTemplate('  a\n\n\n  b'), '  a\n\n\n  b');
  assert.is(normaliseTemplate('a\rb'), 'a\rb');
  assert.is(normaliseTemplate(''), '');
  assert.is(normaliseTemplate(' \n\t\n'), '');
});

test('texts that normalise alike hash alike; any other difference changes the hash', () => {
  assert.is(templateHash(normaliseTemplate('x\r\ny  ')), templateHash(normaliseTemplate('\nx\ny\n')));
  assert.is.not(templateHash(normaliseTemplate('x\ny')), templateHash(normaliseTemplate('x\n y')));
  assert.is(templateHash(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test.run();

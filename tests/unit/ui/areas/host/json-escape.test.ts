import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeText, MAX_INPUT_CHARS, unescapeText } from '../../../../../ui/src/areas/host/json-string/json-escape.js';

const DOC = '{"name": "vigil", "path": "C:\\\\tmp", "line": "a\nb", "emoji": "é😀"}';

test('escape and unescape round-trip any text, quotes on or off', () => {
  for (const text of [DOC, '', 'plain', 'tab\there', '\u0000\u001f', 'back\\slash "quoted"', '😀 non-BMP']) {
    const lit = escapeText(text);
    assert.ok(lit.ok);
    if (!lit.ok) return;
    assert.is(JSON.parse(lit.text), text);
    assert.equal(unescapeText(lit.text), { ok: true, text });
    const bare = escapeText(text, false);
    assert.ok(bare.ok && !bare.text.startsWith('"') || text === '');
    if (bare.ok && bare.text) assert.equal(unescapeText(bare.text), { ok: true, text });
  }
});

test('a literal that holds JSON comes back formatted when asked', () => {
  const lit = escapeText('{"a":1,"b":[true,null]}');
  assert.ok(lit.ok);
  if (!lit.ok) return;
  assert.equal(unescapeText(lit.text, true), { ok: true, text: '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}' });
  assert.equal(unescapeText(lit.text, false), { ok: true, text: '{"a":1,"b":[true,null]}' });
});

test('JSON that is not a string, a broken literal, blank input and oversize input each get a clear problem', () => {
  const obj = unescapeText('{"a": 1}');
  assert.ok(!obj.ok && /JSON object text, not an escaped string/.test(obj.problem));
  const arr = unescapeText('[1, "a"]');
  assert.ok(!arr.ok && /JSON array text/.test(arr.problem));
  // Without quotes, text with nothing to unescape is its own content.
  assert.equal(unescapeText('[1, 2]'), { ok: true, text: '[1, 2]' });
  const broken = unescapeText('"unterminated \\');
  assert.ok(!broken.ok && /Not a valid escaped string/.test(broken.problem));
  const blank = unescapeText('   ');
  assert.ok(!blank.ok && /Paste an escaped string/.test(blank.problem));
  const huge = escapeText('x'.repeat(MAX_INPUT_CHARS + 1));
  assert.ok(!huge.ok && /longer than/.test(huge.problem));
});

test.run();

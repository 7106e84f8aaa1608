import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isTyping, KeySequence, SEQUENCE_MS, usesCommandKey } from '../../../../ui/src/shell/key-sequence.js';

test('g then o runs the shortcut; too slow, or another key between, does not', () => {
  const ran: string[] = [];
  const keys = new KeySequence(new Map([['g o', () => ran.push('overview')], ['g s', () => ran.push('settings')]]));
  assert.is(keys.press('g', 0), true, 'g arms');
  assert.is(keys.press('o', 100), true);
  assert.equal(ran, ['overview']);
  keys.press('g', 1000);
  assert.is(keys.press('s', 1000 + SEQUENCE_MS + 1), false, 'too late');
  keys.press('g', 5000);
  keys.press('x', 5010);
  assert.is(keys.press('s', 5020), false, 'disarmed by x');
  keys.press('G', 9000);
  keys.press('S', 9010);
  assert.equal(ran, ['overview', 'settings'], 'letters ignore case');
  assert.is(keys.press('o', 9500), false, 'a second key alone does nothing');
});

test('typing in a field is not a shortcut; checkboxes and buttons are not fields', () => {
  assert.is(isTyping({ tagName: 'INPUT', type: 'text' } as unknown as EventTarget), true);
  assert.is(isTyping({ tagName: 'INPUT', type: 'search' } as unknown as EventTarget), true);
  assert.is(isTyping({ tagName: 'TEXTAREA' } as unknown as EventTarget), true);
  assert.is(isTyping({ tagName: 'DIV', isContentEditable: true } as unknown as EventTarget), true);
  assert.is(isTyping({ tagName: 'INPUT', type: 'checkbox' } as unknown as EventTarget), false);
  assert.is(isTyping({ tagName: 'BUTTON' } as unknown as EventTarget), false);
  assert.is(isTyping(null), false);
});

test('Apple platforms use ⌘, others Ctrl', () => {
  assert.is(usesCommandKey({ platform: 'MacIntel' }), true);
  assert.is(usesCommandKey({ platform: '', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)' }), true);
  assert.is(usesCommandKey({ platform: 'Linux x86_64' }), false);
  assert.is(usesCommandKey({ platform: 'Win32' }), false);
});

test.run();

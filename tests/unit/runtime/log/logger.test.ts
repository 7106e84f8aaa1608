import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../../../runtime/log/logger.js';

test('json lines carry level, message, bound fields and serialised errors; levels filter', () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', format: 'json', write: (l) => lines.push(l) }).child({ plugin: 'proxy' });
  log.debug('hidden');
  log.error('upstream failed', { error: Object.assign(new Error('ECONNREFUSED'), { code: 'E1' }) });
  assert.is(lines.length, 1);
  const entry = JSON.parse(lines[0]);
  assert.is(entry.level, 'error');
  assert.is(entry.msg, 'upstream failed');
  assert.is(entry.plugin, 'proxy');
  assert.is(entry.error.message, 'ECONNREFUSED');
  assert.is(entry.error.code, 'E1');
});

test('pretty format is one readable line with the plugin tag', () => {
  const lines: string[] = [];
  createLogger({ format: 'pretty', write: (l) => lines.push(l) }).child({ plugin: 'hello' }).info('ready', { port: 1 });
  assert.match(lines[0], /INFO +\[hello\] ready port=1\n$/);
});

test.run();

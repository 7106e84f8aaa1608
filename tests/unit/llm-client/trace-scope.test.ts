// clients/node/src/trace-scope.ts: nested withTrace scopes, carried across awaits.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TraceScope, mergeAttributes } from '../../../clients/node/src/trace-scope.js';

test('inner scalar fields win, tags add up, metadata merges key by key', () => {
  assert.equal(mergeAttributes({ name: 'a', tags: ['x'], metadata: { k: 1, j: 1 } }, { name: 'b', tags: ['y'], metadata: { k: 2 } }),
    { name: 'b', tags: ['x', 'y'], metadata: { k: 2, j: 1 } });
  assert.equal(mergeAttributes(undefined, { user_id: 'u' }), { user_id: 'u' });
  assert.equal(mergeAttributes({ user_id: 'u' }, null as any), { user_id: 'u' });
});

test('a scope is seen across awaits inside fn, and not outside it; fn\'s value and errors are its own', async () => {
  const scope = new TraceScope();
  const seen = await scope.run({ user_id: 'u' }, async () => {
    await new Promise((r) => setTimeout(r, 1));
    return scope.run({ session_id: 's' }, () => scope.current());
  });
  assert.equal(seen, { user_id: 'u', session_id: 's' });
  assert.is(scope.current(), undefined);
  assert.throws(() => scope.run({}, () => { throw new Error('the app\'s'); }), /the app's/);
});

test.run();

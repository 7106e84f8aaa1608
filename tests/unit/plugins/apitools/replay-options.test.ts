import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { failureOf, parseReplayOptions, type ReplayOptions } from '../../../../plugins/apitools/replay/replay-options.js';

const parse = (flags: Record<string, string | boolean>, lists?: Record<string, string[]>) =>
  parseReplayOptions({ flags: { config: 'vigil.yaml', target: 'http://staging:8080/base', ...flags }, positionals: [], lists }, 1_000_000_000);
const ok = (flags: Record<string, string | boolean>, lists?: Record<string, string[]>) => {
  const o = parse(flags, lists);
  if (typeof o === 'string') throw new Error(o);
  return o;
};

test('defaults: safe methods, 10/s, 4 at once, status diff, no change allowed, 10 s per request, newest 1000', () => {
  const o = ok({});
  assert.equal([...o.methods], ['GET', 'HEAD', 'OPTIONS']);
  assert.equal([o.perSecond, o.concurrency, o.diff, o.maxChanged, o.timeoutMs, o.limit, o.since, o.format, o.force],
    [10, 4, 'status', { count: 0 }, 10_000, 1000, 0, 'text', false]);
});

test('values: rates per minute, percentages, durations, repeated headers', () => {
  const o = ok({ rate: '600/m', 'max-changed': '5%', timeout: '1500ms', since: '1h', methods: 'get, post', diff: 'shape', force: true },
    { header: ['Authorization: Bearer x', 'X-Empty:'] });
  assert.equal([o.perSecond, o.maxChanged, o.timeoutMs, o.since, [...o.methods], o.diff, o.force],
    [10, { percent: 5 }, 1500, 1_000_000_000 - 3_600_000, ['GET', 'POST'], 'shape', true]);
  assert.equal([...o.headers.entries()], [['authorization', { name: 'Authorization', value: 'Bearer x' }], ['x-empty', { name: 'X-Empty', value: '' }]]);
  assert.is(ok({ rate: '2.5' }).perSecond, 2.5);
});

test('every bad value is a usage error that names the flag', () => {
  const cases: [Record<string, string | boolean>, RegExp, Record<string, string[]>?][] = [
    [{ target: 'ftp://x' }, /--target/], [{ target: 'not a url' }, /--target/], [{ target: 'http://x/?a=1' }, /query/],
    [{ target: 'http://u:p@x/' }, /credentials/], [{ rate: 'fast' }, /--rate/], [{ rate: '0/s' }, /--rate/],
    [{ concurrency: '0' }, /--concurrency/], [{ concurrency: '1.5' }, /--concurrency/], [{ diff: 'body' }, /--diff/],
    [{ 'max-changed': 'x' }, /--max-changed/], [{ 'max-changed': '101%' }, /--max-changed/], [{ 'max-changed': '1.5' }, /--max-changed/],
    [{ timeout: 'soon' }, /--timeout/], [{ timeout: '0' }, /--timeout/], [{ since: 'soon' }, /--since/], [{ limit: '0' }, /--limit/],
    [{ methods: 'GET;POST' }, /--methods/], [{ format: 'xml' }, /--format/],
    [{}, /--header/, { header: ['no colon'] }], [{}, /--header/, { header: ['Bad Name: x'] }],
    [{}, /Content-Length/, { header: ['Content-Length: 3'] }],
  ];
  for (const [flags, why, lists] of cases) {
    const o = parse(flags, lists);
    assert.type(o, 'string', JSON.stringify(flags));
    assert.match(o as string, why);
  }
  assert.match(parseReplayOptions({ flags: { target: 'http://x' }, positionals: [] }) as string, /-config/);
  assert.match(parseReplayOptions({ flags: { config: 'c' }, positionals: [] }) as string, /--target/);
  assert.match(parseReplayOptions({ flags: { config: 'c', target: 'http://x' }, positionals: ['y'] }) as string, /unexpected/);
});

test('failure: more changes than allowed (count or share of the compared), or no answer at all', () => {
  const o = (max: string): ReplayOptions => ok({ 'max-changed': max });
  assert.is(failureOf(o('0'), { replayed: 5, same: 5, changed: 0, errors: 0 }), null);
  assert.match(failureOf(o('0'), { replayed: 5, same: 4, changed: 1, errors: 0 })!, /1 changed, more than --max-changed 0/);
  assert.is(failureOf(o('2'), { replayed: 5, same: 3, changed: 2, errors: 0 }), null);
  assert.is(failureOf(o('50%'), { replayed: 4, same: 2, changed: 2, errors: 0 }), null);
  assert.match(failureOf(o('49%'), { replayed: 4, same: 2, changed: 2, errors: 0 })!, /2 of 4 compared changed \(50\.0%\)/);
  assert.match(failureOf(o('0'), { replayed: 3, same: 0, changed: 0, errors: 3 })!, /answered none of the 3/);
  assert.is(failureOf(o('0'), { replayed: 0, same: 0, changed: 0, errors: 0 }), null);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filterSearch, pageSearch, readView, recordsPath } from '../../../../../ui/src/areas/gateway/records-query.js';

const cursor = '1795650869391.0190f3a2-7c4d-7b1e-9a3f-2c1d4e5f6a7b';

test('the inspector\'s URL becomes the records API\'s query; what it cannot read falls back', () => {
  const q = (search: string) => Object.fromEntries(new URL(recordsPath(search), 'http://x').searchParams);
  assert.equal(q(''), { since: '24h', limit: '50' });
  assert.equal(q('?status=5xx&since=1h&route=%2Fapi%2F**&label.tenant=acme'), { status: '5xx', since: '1h', route: '/api/**', 'label.tenant': 'acme', limit: '50' });
  assert.equal(q('?status=404'), { status: '404', since: '24h', limit: '50' }, 'an exact status');
  assert.equal(q('?status=0'), { status: '0', since: '24h', limit: '50' }, 'no answer');
  assert.equal(q(`?before=${cursor}`), { since: '24h', before: cursor, limit: '50' });
  assert.equal(q(`?after=${cursor}`), { since: '24h', after: cursor, limit: '50' });
  assert.equal(q(`?before=${cursor}&after=${cursor}`), { since: '24h', before: cursor, limit: '50' }, 'one page at a time');
  assert.equal(q('?status=all&since=forever&offset=100&before=abc&status2=5xx'), { since: '24h', limit: '50' }, 'offset is no longer the inspector\'s');
  assert.equal(q('?status=600&label.bad-name=x&label.plan='), { since: '24h', limit: '50' });
  assert.equal(q('?status=5xx&status=4xx'), { since: '24h', limit: '50' }, 'a repeated filter is not guessed at');
  assert.equal(q('?q=orders&method=post&tenant=acme'), { since: '24h', q: 'orders', method: 'POST', tenant: 'acme', limit: '50' });
  assert.equal(q('?method=G3T&q=&tenant='), { since: '24h', limit: '50' }, 'a method is letters; empty text is no filter');
  assert.is(q(`?q=${'x'.repeat(300)}`).q.length, 200, 'text cut to what the API takes');
});

test('a filter starts again from the newest page; a page keeps the filters', () => {
  const on = `?status=5xx&before=${cursor}&label.tenant=acme`;
  assert.is(filterSearch(on, 'route', '/api/**'), '?status=5xx&label.tenant=acme&route=%2Fapi%2F**');
  assert.is(filterSearch(on, 'status', 'all'), '?label.tenant=acme', 'the default leaves the URL');
  assert.is(filterSearch(on, 'label.tenant', null), '?status=5xx');
  assert.is(filterSearch('?since=1h', 'since', '24h'), '');
  assert.is(pageSearch(on, { after: cursor }), `?status=5xx&label.tenant=acme&after=${encodeURIComponent(cursor)}`);
  assert.is(pageSearch(on, {}), '?status=5xx&label.tenant=acme');
  assert.equal(readView(`?after=${cursor}&label.plan=pro&label.tenant=acme`).labels, [['plan', 'pro'], ['tenant', 'acme']]);
});

test.run();

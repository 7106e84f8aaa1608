import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  filterSearch, pageRows, pageSearch, projectSearch, readTracesView, traceCursor, tracesApiPath,
} from '../../../../../ui/src/areas/llm/traces-query.js';

const cursor = '1795650869391.0190f3a2-7c4d-7b1e-9a3f-2c1d4e5f6a7b';
const api = (search: string) => {
  const u = new URL(tracesApiPath('checkout bot', search), 'http://x');
  return { path: u.pathname, q: Object.fromEntries(u.searchParams) };
};

test('the traces URL becomes the dashboard API\'s query, in the project named in the path', () => {
  assert.equal(api(''), { path: '/api/llm/projects/checkout%20bot/traces', q: { since: '7d', limit: '51' } });
  assert.equal(api('?project=x&status=error&model=gpt-4o&template=support&version=2&user_id=u-1&session_id=s&tag=beta&since=1h').q,
    { status: 'error', model: 'gpt-4o', template: 'support', version: '2', user_id: 'u-1', session_id: 's', tag: 'beta', since: '1h', limit: '51' });
  assert.equal(api('?since=all').q, { limit: '51' }, 'all time sends no since');
  assert.equal(api(`?before=${cursor}`).q, { since: '7d', before: cursor, limit: '51' });
  assert.equal(api(`?after=${cursor}`).q, { since: '7d', after: cursor, limit: '51' });
});

test('what the URL cannot mean falls back to the default view', () => {
  const v = readTracesView('?status=maybe&version=2&since=2d&before=nonsense&model=&tag=a&tag=b');
  assert.equal(v, { filters: {}, since: '7d', before: null, after: null }, 'a bad status, a version without a template, a repeated tag, an empty model');
  assert.equal(readTracesView('?template=t&version=0').filters, { template: 't' }, 'version 0 is no version');
  assert.equal(readTracesView(`?before=${cursor}&after=${cursor}`).after, null, 'one direction at a time');
});

test('a filter starts again from the newest page; removing the template removes its version; the time default stays out', () => {
  assert.is(filterSearch(`?project=p&before=${cursor}`, 'status', 'error'), '?project=p&status=error');
  assert.is(filterSearch('?project=p&template=t&version=3', 'template', null), '?project=p');
  assert.is(filterSearch('?project=p&template=t&version=3', 'version', null), '?project=p&template=t');
  assert.is(filterSearch('?project=p&since=1h', 'since', '7d'), '?project=p');
  assert.is(filterSearch('?project=p', 'since', 'all'), '?project=p&since=all');
  assert.is(pageSearch('?project=p&status=ok', { before: cursor }), `?project=p&status=ok&before=${encodeURIComponent(cursor)}`);
  assert.is(pageSearch(`?project=p&after=${cursor}`, {}), '?project=p');
});

test('another project keeps only the time: filters and pages of one project mean nothing in another', () => {
  assert.is(projectSearch(`?project=a&model=m&since=24h&before=${cursor}`, 'b'), '?project=b&since=24h');
  assert.is(projectSearch('?project=a&since=7d', 'b c'), '?project=b+c');
});

test('a trace\'s cursor is its stored time in epoch ms and its id, as the API reads it', () => {
  assert.is(traceCursor({ id: 'abc-1', created_at: '2026-11-25T10:00:00.123Z' }), `${Date.UTC(2026, 10, 25, 10, 0, 0, 123)}.abc-1`);
});

test('a page shows 50 of the 51 asked for; the 51st says a page lies beyond', () => {
  const view = (search: string) => readTracesView(search);
  const n = (k: number) => Array.from({ length: k }, (_, i) => i);
  assert.equal(pageRows(view(''), n(51), 50).rows.length, 50);
  assert.equal([pageRows(view(''), n(51), 50).older, pageRows(view(''), n(51), 50).newest], [true, true]);
  assert.equal(pageRows(view(`?before=${cursor}`), n(50), 50).older, false, 'exactly a page left: nothing older');
  const newer = pageRows(view(`?after=${cursor}`), n(51), 50);
  assert.equal([newer.rows[0], newer.rows.length, newer.newest], [1, 50, false], 'going newer, the extra one is the newest, dropped');
  assert.equal(pageRows(view(`?after=${cursor}`), n(50), 50).newest, true, 'reached the top: the newest page');
});

test.run();

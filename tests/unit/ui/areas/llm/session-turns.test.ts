import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { replayTurns } from '../../../../../ui/src/areas/llm/session-turns.js';
import { peopleApiPath, peopleSearch, readPeopleView, SESSION_SORTS } from '../../../../../ui/src/areas/llm/people-query.js';

const m = (role: string, content: string) => ({ role, content });

test('a turn that resends the history shows only what it added; one that does not shows its whole input', () => {
  const turns = replayTurns([
    { input: [m('system', 'S'), m('user', 'a')], output: m('assistant', 'A') },
    { input: [m('system', 'S'), m('user', 'a'), m('assistant', 'A'), m('user', 'b')], output: m('assistant', 'B') },
    // A trimmed history (the system prompt dropped): nothing is taken for repeated.
    { input: [m('user', 'b'), m('assistant', 'B'), m('user', 'c')], output: m('assistant', 'C') },
    { input: { not: 'a conversation' }, output: 'plain text answer' },
  ]);
  assert.equal(turns.map((t) => [t.repeated, t.added?.map((x) => x.text), t.output?.map((x) => x.text)]), [
    [0, ['S', 'a'], ['A']],
    [3, ['b'], ['B']],
    [0, ['b', 'B', 'c'], ['C']],
    [0, undefined, ['plain text answer']],
  ]);
  assert.is(turns[3].added, null);
});

test('the lists\' view reads from the URL with defaults, and asks the API for exactly that', () => {
  assert.equal(readPeopleView('?range=7d&sort=turns&order=asc&offset=25', SESSION_SORTS), { range: '7d', sort: 'turns', order: 'asc', offset: 25 });
  assert.equal(readPeopleView('?range=1y&sort=drop&offset=-3', SESSION_SORTS), { range: '30d', sort: 'last_seen', order: 'desc', offset: 0 });
  assert.is(peopleApiPath('a b', 'sessions', readPeopleView('?sort=cost&offset=25', SESSION_SORTS), { user_id: 'u/1' }),
    '/api/llm/projects/a%20b/sessions?since=30d&sort=cost&order=desc&limit=25&user_id=u%2F1&offset=25');
  // A new order starts at the first page; the defaults stay out of the URL.
  assert.is(peopleSearch('?project=p&offset=50&sort=cost', { sort: 'turns', order: 'desc' }), '?project=p&sort=turns');
});

test.run();

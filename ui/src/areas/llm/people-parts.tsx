// What the sessions and users pages share: the range switch, the pager of a server-sorted list, and the empty state
// that says how to send the ids these pages group by.
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { Segmented } from '../../components/segmented.js';
import { formatInteger } from '../../format/numbers.js';
import { here, navigate } from '../../shell/router.js';
import { PEOPLE_PAGE, peopleSearch, RANGES, type PeopleView, type Range } from './people-query.js';

/** `24h` as "24 hours", `7d` as "7 days". */
export const rangeText = (r: Range): string => r.replace('h', ' hours').replace('d', ' days');
const rangeOptions = RANGES.map((r) => ({ value: r, label: r, description: `Last ${rangeText(r)}` }));

export function RangeSwitch({ view }: { view: PeopleView }) {
  return (
    <Segmented<Range> label="Time" options={rangeOptions} value={view.range}
      onChange={(range) => navigate(here.value.path + peopleSearch(here.value.search, { range }))} />
  );
}

/** Previous and next pages of a list the server pages by offset. */
export function OffsetPager({ view, shown, total, noun }: { view: PeopleView; shown: number; total: number; noun: string }) {
  const go = (offset: number) => {
    navigate(here.value.path + peopleSearch(here.value.search, { offset }));
    window.scrollTo({ top: 0 });
  };
  return (
    <nav class="pager" aria-label={`Pages of ${noun}`}>
      <span class="muted">{formatInteger(view.offset + 1)}–{formatInteger(view.offset + shown)} of {formatInteger(total)}</span>
      <button type="button" class="button button-secondary button-small" disabled={view.offset === 0} onClick={() => go(Math.max(0, view.offset - PEOPLE_PAGE))}>Previous</button>
      <button type="button" class="button button-secondary button-small" disabled={view.offset + shown >= total} onClick={() => go(view.offset + PEOPLE_PAGE)}>Next</button>
    </nav>
  );
}

const curlWithIds = (origin: string) => [
  `curl -X POST ${origin}/v1/traces \\`,
  '  -H "X-Service-Project-Key: $VIGIL_PROJECT_KEY" \\',
  '  -H "Content-Type: application/json" \\',
  `  -d '{"traces": [{"model": "gpt-4o-mini",`,
  '        "session_id": "chat-42", "user_id": "user-7",',
  '        "input": [{"role": "user", "content": "Hello"}],',
  '        "output": {"role": "assistant", "content": "Hi!"}}]}\'',
].join('\n');

const NODE_IDS = `await vigil.withTrace({ user_id: user.id, session_id: chat.id }, () =>
  handleQuestion(question));   // every wrapped call inside carries both ids`;

/** No trace in the range carries the id this page groups by: how to send it. */
export function NoIdsYet({ what, range, project }: { what: 'session_id' | 'user_id'; range: Range; project: string }) {
  const noun = what === 'session_id' ? 'sessions' : 'users';
  return (
    <EmptyState icon="requests" title={`No ${noun} in the last ${rangeText(range)}`}
      actions={range !== '90d' && <button type="button" class="button button-secondary" onClick={() => navigate(here.value.path + peopleSearch(here.value.search, { range: '90d' }))}>Show 90 days</button>}>
      <p>
        Traces of <strong>{project}</strong> are grouped by their <code class="inline-code">{what}</code>; none in this range has one.
        Send it with each call (set <code class="inline-code">VIGIL_PROJECT_KEY</code> to the project's key first):
      </p>
      <CodeBlock label={`Send a trace with a ${what}`} code={curlWithIds(window.location.origin)} />
      <p>With the Node client, every call wrapped in <code class="inline-code">withTrace</code> carries them:</p>
      <CodeBlock label="Set the ids with the Node client" language="javascript" code={NODE_IDS} />
    </EmptyState>
  );
}

// A trace's call in one strip above its input and output: the figures a reader scans (status, model, prompt version,
// latency, tokens, cost, time) on the first line, who and where (user, session, tags, id) on a quieter second.
import type { ComponentChildren } from 'preact';
import { Badge } from '../../components/badge.js';
import { formatInteger, formatLatency } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { Link } from '../../shell/router.js';
import { formatUsd } from './figures.js';
import { templatePath, type Trace } from './llm-api.js';
import { filterSearch } from './traces-query.js';

function Fact({ term, children, wide }: { term: string; children: ComponentChildren; wide?: boolean }) {
  return <div class={wide ? 'call-fact call-fact-wide' : 'call-fact'}><dt>{term}</dt><dd>{children}</dd></div>;
}

/** Where a filter link of this trace leads: the project's list, filtered by it. */
const filtered = (project: string, name: 'user_id' | 'session_id' | 'tag' | 'model', value: string) =>
  `/llm${filterSearch(`?project=${encodeURIComponent(project)}`, name, value)}`;

const none = <span class="muted">none</span>;

function Tokens({ tokens }: { tokens: Trace['tokens'] }) {
  if (!tokens) return <span class="muted">not reported</span>;
  const input = tokens.input ?? 0;
  const output = tokens.output ?? 0;
  return (
    <>
      {formatInteger(input)} in · {formatInteger(output)} out
      {tokens.cache_read ? <span class="call-fact-note">{formatInteger(tokens.cache_read)} of the input from cache</span> : null}
    </>
  );
}

/** The call's facts as a strip; the trace page's header reads as one line of figures. */
export function CallStrip({ t, project }: { t: Trace; project: string }) {
  const started = t.start_time ? Date.parse(t.start_time) : null;
  return (
    <section class="card call-strip" aria-label="The call">
      <dl class="call-facts">
        <Fact term="Status">
          <Badge tone={t.status === 'error' ? 'danger' : 'success'}>{t.status === 'error' ? 'error' : 'ok'}</Badge>
          {/* A Langfuse generation stored after idling without an end: its figures are what it had then. */}
          {t.incomplete === 'never_ended' && <> <Badge tone="warning">incomplete: never ended</Badge></>}
        </Fact>
        <Fact term="Model" wide>
          <Link href={filtered(project, 'model', t.model)}><code class="inline-code">{t.model}</code></Link>
          {t.provider && <span class="muted"> · {t.provider}</span>}
        </Fact>
        <Fact term="Prompt" wide>
          {t.prompt_template ? (
            <Link href={templatePath(project, t.prompt_template.name, { version: t.prompt_template.version })}>
              <code class="inline-code">{t.prompt_template.name}</code> v{t.prompt_template.version}
            </Link>
          ) : <span class="muted">no template sent</span>}
        </Fact>
        <Fact term="Latency">
          {t.latency_ms === null && t.incomplete === 'never_ended'
            ? <span class="muted">not ended</span>
            : <span class="numeric">{formatLatency(t.latency_ms)}</span>}
        </Fact>
        <Fact term="Tokens"><span class="numeric"><Tokens tokens={t.tokens} /></span></Fact>
        <Fact term="Cost">
          {t.cost_usd === null ? <span class="muted">unknown</span> : <span class="numeric">{formatUsd(t.cost_usd)}</span>}
          {t.cost_usd === null
            ? <span class="call-fact-note">no price for this model, or no tokens</span>
            : t.cost_estimated && <span class="call-fact-note">from Vigil's price table</span>}
        </Fact>
        <Fact term={started ? 'Started' : 'Stored'}>
          <span class="numeric">{formatDateTime(started ?? Date.parse(t.created_at))}</span>
          {started !== null && <span class="call-fact-note">stored {formatDateTime(Date.parse(t.created_at))}</span>}
        </Fact>
      </dl>
      <dl class="call-facts call-facts-more">
        <Fact term="User">{t.user_id ? <Link href={filtered(project, 'user_id', t.user_id)}>{t.user_id}</Link> : none}</Fact>
        <Fact term="Session">{t.session_id ? <Link href={filtered(project, 'session_id', t.session_id)}>{t.session_id}</Link> : none}</Fact>
        <Fact term="Tags">
          {t.tags.length ? t.tags.map((tag) => <Link key={tag} href={filtered(project, 'tag', tag)} class="filter-link"><Badge>{tag}</Badge></Link>) : none}
        </Fact>
        <Fact term="Trace id" wide><code class="inline-code">{t.id}</code></Fact>
      </dl>
    </section>
  );
}

// Billing: per LLM project and UTC month, the stored calls, their tokens, the application's cost and the evals' own
// cost, against each plan's monthly limits (items and budget cap); the month as CSV and JSON, and the usage export
// (CloudEvents) an external billing system pages through. Reads GET /api/llm/billing (plugins/llm/billing).
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { TableFrame } from '../../components/table-frame.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatInteger, formatPercent, moneyFormat } from '../../format/numbers.js';
import { here, Link, navigate } from '../../shell/router.js';
import {
  limitOf, monthLabel, NEAR_RATIO, monthOf, monthParam, shiftMonth, STATE_TEXT, STATE_TONE, totalsOf,
  type BillingLimitUsage, type BillingMonth, type ProjectBill,
} from './billing-figures.js';
import { formatUsd } from './figures.js';

/** The API's largest page: the page lists this many projects, and says so when there are more. */
const PAGE = 200;

function MonthPicker({ month }: { month: string }) {
  const current = monthOf(Date.now());
  const go = (m: string) => navigate(`/llm/billing${m === current ? '' : `?month=${m}`}`);
  return (
    <nav class="month-picker" aria-label="Month">
      <button type="button" class="button button-secondary button-small" onClick={() => go(shiftMonth(month, -1))} aria-label={`Previous month, ${monthLabel(shiftMonth(month, -1))}`}>‹</button>
      <span class="month-picker-label" aria-live="polite">{monthLabel(month)}</span>
      <button type="button" class="button button-secondary button-small" onClick={() => go(shiftMonth(month, 1))} disabled={month >= current}
        aria-label={`Next month, ${monthLabel(shiftMonth(month, 1))}`}>›</button>
    </nav>
  );
}

function LimitCell({ limit, money }: { limit: BillingLimitUsage | undefined; money?: (n: number) => string }) {
  if (!limit || limit.limit === null) return <span class="muted">no limit</span>;
  const ratio = limit.ratio ?? 0;
  const show = money ?? formatInteger;
  return (
    <span class="limit-use" title={`${show(limit.used)} of ${show(limit.limit)} counted this month`}>
      <span class={`numeric${ratio >= NEAR_RATIO ? ' limit-use-high' : ''}`}>{formatPercent(Math.min(ratio, 9.99))}</span>
      <span class="muted"> of {show(limit.limit)}</span>
    </span>
  );
}

function BillTable({ bills }: { bills: ProjectBill[] }) {
  const items = countFormat(bills.map((b) => b.items));
  const tokensIn = countFormat(bills.map((b) => b.input_tokens));
  const tokensOut = countFormat(bills.map((b) => b.output_tokens));
  const app = moneyFormat(bills.map((b) => b.cost_usd), 'USD');
  const evals = moneyFormat(bills.map((b) => b.eval_cost_usd), 'USD');
  const total = moneyFormat(bills.map((b) => b.total_cost_usd), 'USD');
  return (
    <TableFrame layout="cards" caption="Billing per project" detail="Calls, tokens and cost of the month, and its limits" class="billing-table">
      <thead>
        <tr>
          <th scope="col">Project</th>
          <th scope="col">State</th>
          <th scope="col">Plan</th>
          <th scope="col" class="align-end">Calls</th>
          <th scope="col" class="align-end">Input tokens</th>
          <th scope="col" class="align-end">Output tokens</th>
          <th scope="col" class="align-end">App cost</th>
          <th scope="col" class="align-end">Eval cost</th>
          <th scope="col" class="align-end">Total</th>
          <th scope="col">Calls limit</th>
          <th scope="col">Budget</th>
        </tr>
      </thead>
      <tbody>
        {bills.map((b) => (
          <tr key={b.project}>
            <th scope="row"><Link href={`/llm/projects/${encodeURIComponent(b.project)}`} class="project-link">{b.project}</Link></th>
            <td class="card-lead" data-label="State"><Badge tone={STATE_TONE[b.state]}>{STATE_TEXT[b.state]}</Badge></td>
            <td data-label="Plan">{b.plan ? <Badge tone="accent">{b.plan}</Badge> : <span class="muted">no plan</span>}</td>
            <td class="align-end numeric card-main" data-label="Calls">{items(b.items)}</td>
            <td class="align-end numeric" data-label="Input tokens">{tokensIn(b.input_tokens)}</td>
            <td class="align-end numeric" data-label="Output tokens">{tokensOut(b.output_tokens)}</td>
            <td class="align-end numeric" data-label="App cost">{app(b.cost_usd)}</td>
            <td class="align-end numeric" data-label="Eval cost">{evals(b.eval_cost_usd)}</td>
            <td class="align-end numeric card-main" data-label="Total">{total(b.total_cost_usd)}</td>
            <td data-label="Calls limit"><LimitCell limit={limitOf(b, 'items_per_month')} /></td>
            <td data-label="Budget"><LimitCell limit={limitOf(b, 'monthly_usd')} money={formatUsd} /></td>
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

function Attention({ bills }: { bills: ProjectBill[] }) {
  const flagged = bills.filter((b) => b.state === 'near' || b.state === 'over');
  if (!flagged.length) return null;
  return (
    <div class="notice billing-notice" role="status">
      <Icon name="alert" />
      <div>
        <strong>{flagged.length === 1 ? 'One project is' : `${flagged.length} projects are`} near or over a plan limit.</strong>{' '}
        {flagged.map((b, i) => (
          <span key={b.project}>{i > 0 && ', '}<Link href={`/llm/projects/${encodeURIComponent(b.project)}`}>{b.project}</Link> ({STATE_TEXT[b.state]})</span>
        ))}
        . Over its calls limit, ingest answers 429 until the next month; over its budget, calls are sampled.
        An alert rule on <code class="inline-code">llm.plan_usage</code> tells you before that.
      </div>
    </div>
  );
}

function MonthStats({ bills, month }: { bills: ProjectBill[]; month: string }) {
  const t = totalsOf(bills);
  return (
    <Stats label={`Billing for ${monthLabel(month)}`}>
      <Stat label="Calls" value={formatInteger(t.items)} detail={`${bills.length === 1 ? 'one project' : `${formatInteger(bills.length)} projects`}`} />
      <Stat label="Tokens" value={formatInteger(t.input_tokens + t.output_tokens)} detail={`${formatInteger(t.input_tokens)} in, ${formatInteger(t.output_tokens)} out`} />
      <Stat label="Application cost" value={formatUsd(t.cost_usd)} tone={t.cost_usd > 0 ? 'accent' : 'neutral'} detail="What the calls cost" />
      <Stat label="Eval cost" value={formatUsd(t.eval_cost_usd)} detail="Judges and embeddings, apart" />
    </Stats>
  );
}

function ExportCard({ month }: { month: string }) {
  const origin = typeof location === 'undefined' ? 'http://127.0.0.1:9095' : location.origin;
  const code = `curl -H "Authorization: Bearer $VIGIL_TOKEN" "${origin}/api/llm/billing/events?month=${month}&limit=500"`;
  return (
    <Card title="Usage export" description="For an external billing system: CloudEvents 1.0, as OpenMeter ingests them">
      <p class="billing-text">
        One event per project and day, for days that are over. Its <code class="inline-code">id</code> never changes, so sending the month again
        adds nothing twice; page on with each answer's <code class="inline-code">next</code> as <code class="inline-code">after</code>.
        <code class="inline-code">VIGIL_TOKEN</code> is the dashboard token.
      </p>
      <CodeBlock label="Usage export command" code={code} />
    </Card>
  );
}

export default function BillingPage() {
  const month = monthParam(new URLSearchParams(here.value.search).get('month'));
  const res = useResource<BillingMonth>(`/api/llm/billing?month=${month}&limit=${PAGE}`, 'the billing figures');
  const bills = res.data?.data;
  const used = bills?.some((b) => b.items > 0 || b.counted.items > 0) ?? false;
  return (
    <>
      <PageHeader title="Billing"
        subtitle="Per project and UTC month: stored calls, tokens, the application's and the evals' cost, against each plan's limits."
        actions={<>
          <MonthPicker month={month} />
          {/* Plain same-origin links: the session cookie authenticates the download; no token is ever in a URL. */}
          <a class="button button-secondary" href={`/api/llm/billing.csv?month=${month}`} download title={`One line per project for ${monthLabel(month)}`}>
            <Icon name="download" /> CSV
          </a>
          <a class="button button-secondary" href={`/api/llm/billing?month=${month}&limit=${PAGE}&download=1`} download title={`The figures of ${monthLabel(month)} as JSON`}>
            <Icon name="download" /> JSON
          </a>
        </>} />
      {res.error && <ErrorState error={res.error} onRetry={res.reload} />}
      {!bills && !res.error && <Loading label="Loading the billing figures" lines={5} />}
      {bills && bills.length === 0 && (
        <EmptyState icon="llm" title="No LLM project yet"
          actions={<Link class="button button-primary" href="/llm/projects?new=1">Create a project</Link>}>
          Billing counts each project's calls. Create a project, send its calls with its key, and they show here by month.
        </EmptyState>
      )}
      {bills && bills.length > 0 && (
        <div class="stack">
          <Attention bills={bills} />
          {!used && <p class="page-footnote">No calls in {monthLabel(month)}. Pick another month, or send calls with a project key: they count in the month they were made.</p>}
          <Card title="Projects" description={`${monthLabel(month)}, UTC. Limits count what ingest accepted in the month the calls arrived.`} padded={false}>
            <BillTable bills={bills} />
          </Card>
          {bills.length === PAGE && <p class="page-footnote">The first {formatInteger(PAGE)} projects by name; the CSV has them all.</p>}
          <MonthStats bills={bills} month={month} />
          <ExportCard month={month} />
        </div>
      )}
    </>
  );
}

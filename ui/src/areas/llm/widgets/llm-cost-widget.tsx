// LLM spend this month across projects (what the budgets count), with the costliest projects on a taller tile.
// Month-to-date usage moves by cents: once a minute is enough.
import type { LlmProjectList } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import { Detail, Figure, Pending } from '../../../home/widget-parts.js';
import { Link } from '../../../shell/router.js';
import type { WidgetProps } from '../../types.js';
import { formatUsd } from '../figures.js';

export const PROJECTS_PATH = '/api/llm/projects';
export const PROJECTS_EVERY_MS = 60_000;

export default function LlmCostWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<LlmProjectList>(PROJECTS_PATH, PROJECTS_EVERY_MS);
  if (!data) return <Pending error={error} what="LLM cost" />;
  if (!data.data.length) return <p class="widget-note">No project yet. <Link href="/llm/projects">Create one</Link> to trace LLM calls and their cost.</p>;
  const total = data.data.reduce((sum, p) => sum + p.usage.cost_usd, 0);
  const top = [...data.data].sort((a, b) => b.usage.cost_usd - a.usage.cost_usd).slice(0, Math.max(0, size.h * 2 - 2));
  return (
    <>
      <Figure value={formatUsd(total)} />
      <Detail>this month, {data.data.length === 1 ? '1 project' : `${data.data.length} projects`}</Detail>
      {top.length > 0 && (
        <ul class="widget-list" aria-label="Cost by project this month">
          {top.map((p) => <li key={p.name}><Link href={`/llm/projects/${encodeURIComponent(p.name)}`}>{p.name}</Link><span>{formatUsd(p.usage.cost_usd)}</span></li>)}
        </ul>
      )}
    </>
  );
}

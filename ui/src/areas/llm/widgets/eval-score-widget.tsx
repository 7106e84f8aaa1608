// Average eval score over the last 24 hours, per project (the first few), from each project's stats. Every 2
// minutes: scores arrive as evaluators finish, not by the second.
import type { LlmProjectList, ProjectStats } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import { Detail, Figure, Pending, type WidgetTone } from '../../../home/widget-parts.js';
import { formatInteger } from '../../../format/numbers.js';
import { Link } from '../../../shell/router.js';
import type { WidgetProps } from '../../types.js';
import { PROJECTS_EVERY_MS, PROJECTS_PATH } from './llm-cost-widget.js';

const STATS_EVERY_MS = 120_000;

const tone = (score: number | null): WidgetTone => (score === null ? undefined : score >= 0.8 ? 'success' : score >= 0.5 ? 'warning' : 'danger');

function ProjectScore({ name, big }: { name: string; big: boolean }) {
  const { data, error } = usePolled<ProjectStats>(`/api/llm/projects/${encodeURIComponent(name)}/stats?range=24h`, STATS_EVERY_MS);
  if (!data) return big ? <Pending error={error} what={`${name}'s eval score`} /> : <li><span>{name}</span><span>…</span></li>;
  const score = data.eval.score_avg;
  if (big) {
    return (
      <>
        <Figure value={score === null ? '—' : score.toFixed(2)} tone={tone(score)} />
        <Detail>{score === null ? `${name}: no evals in 24 h` : `${name}: ${formatInteger(data.eval.samples)} scored in 24 h`}</Detail>
      </>
    );
  }
  return <li><Link href={`/llm/evals?project=${encodeURIComponent(name)}`}>{name}</Link><span class={score === null ? '' : `widget-${tone(score)}`}>{score === null ? '—' : score.toFixed(2)}</span></li>;
}

export default function EvalScoreWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<LlmProjectList>(PROJECTS_PATH, PROJECTS_EVERY_MS);
  if (!data) return <Pending error={error} what="eval scores" />;
  const projects = data.data.map((p) => p.name);
  if (!projects.length) return <p class="widget-note">No project yet. <Link href="/llm/projects">Create one</Link>, then add evals.</p>;
  if (projects.length === 1 || size.h === 1) return <ProjectScore name={projects[0]} big />;
  return (
    <ul class="widget-list" aria-label="Average eval score in the last 24 hours, by project">
      {projects.slice(0, size.h * 2).map((name) => <ProjectScore key={name} name={name} big={false} />)}
    </ul>
  );
}

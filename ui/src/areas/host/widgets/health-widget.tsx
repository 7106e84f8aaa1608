// The health score out of 100 and its worst findings, each linking where it can be fixed. The score runs
// systemctl and reads apt's cached simulation: every 2 minutes is plenty.
import { Detail, Figure, Pending } from '../../../home/widget-parts.js';
import type { HealthScore } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import { Link } from '../../../shell/router.js';
import type { WidgetProps } from '../../types.js';

const EVERY_MS = 120_000;

export default function HealthWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<HealthScore>('/api/healthscore', EVERY_MS);
  if (!data) return <Pending error={error} what="the health score" />;
  const tone = data.score >= 90 ? 'success' : data.score >= 50 ? 'warning' : 'danger';
  const shown = data.findings.slice(0, Math.max(0, size.h * 2 - 1));
  return (
    <>
      <Figure value={data.score} unit="/ 100" tone={tone} />
      <Detail>{data.verdict}{data.findings.length ? ` · ${data.findings.length} ${data.findings.length === 1 ? 'finding' : 'findings'}` : ' · nothing to fix'}</Detail>
      {shown.length > 0 && (
        <ul class="widget-list" aria-label="Findings, worst first">
          {shown.map((f, i) => (
            <li key={i}>
              <Link href={f.path} title={f.detail}>{f.title}</Link>
              <span class={f.severity === 'critical' ? 'widget-danger' : f.severity === 'warning' ? 'widget-warning' : ''}>{f.severity}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { askHealthReport } from '../../shell/assistant/assistant-state.js';
import { Link } from '../../shell/router.js';
import { shellInfo } from '../../shell/shell-info.js';
import { areas, systemPages } from '../index.js';
import type { HealthReport } from './host-api.js';
import { fixLink, scoreTone } from './finding-links.js';

const SEVERITY_TONE = { critical: 'danger', warning: 'warning', info: 'neutral' } as const;
const SEVERITY_COST = { critical: 20, warning: 10, info: 3 } as const;
const SEVERITY_WORD = { critical: 'critical', warning: 'warning', info: 'note' } as const;

/** The health score out of 100, and each finding in plain words with where to fix it, worst first. */
export function HealthCard({ health }: { health: HealthReport }) {
  const pages = [...areas.flatMap((a) => a.pages), ...systemPages];
  // The report is written only when the user asks, from the panel, after seeing the findings it will send.
  const report = shellInfo.value?.plugins.includes('assistant') ? (
    <button type="button" class="button button-secondary" onClick={() => askHealthReport({
      score: health.score, verdict: health.verdict, findings: health.findings.map((f) => ({ severity: f.severity, title: f.title, detail: f.detail })),
    })}>AI report</button>
  ) : undefined;
  return (
    <Card title="Health score" description="100 less 20 per critical finding, 10 per warning and 3 per note" class="host-card host-card-health" actions={report}>
      <div class="host-figure">
        <span class={`host-figure-value tone-${scoreTone(health.score)}`}>{health.score}<span class="host-figure-unit">/100</span></span>
        <span class="host-figure-label">{health.verdict}</span>
      </div>
      {health.findings.length === 0 ? (
        <p class="host-note">Nothing to fix: disks, updates, services, memory, temperatures and the battery are all fine.</p>
      ) : (
        <ul class="host-findings">
          {health.findings.map((f, i) => {
            const link = fixLink(f.action, f.path, pages);
            return (
              <li key={i} class="host-finding">
                <Badge tone={SEVERITY_TONE[f.severity]}>{SEVERITY_WORD[f.severity]} −{SEVERITY_COST[f.severity]}</Badge>
                <div>
                  <p class="host-finding-title">{f.title}</p>
                  {f.detail && <p class="host-finding-detail">{f.detail}</p>}
                  {link && <Link href={link.href} class="host-finding-link">{link.label}</Link>}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {health.unchecked.length > 0 && <p class="host-note">Not checked on this machine: {health.unchecked.join(', ')}.</p>}
    </Card>
  );
}

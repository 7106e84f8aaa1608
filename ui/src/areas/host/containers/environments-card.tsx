// The environments found, one line each: where it was reached, whether it answered (and how fast), or why not, e.g.
// "no answer in 3 s". An unreachable one never hides the others' rows.
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { formatInteger } from '../../../format/numbers.js';
import { ENGINE_NAMES, type ContainerEnvironment } from './containers-api.js';

const STATE_TEXT: Record<ContainerEnvironment['state'], string> = { ok: 'answered', unreachable: 'unreachable', error: 'error' };

function countText(e: ContainerEnvironment): string {
  if (e.state !== 'ok') return '';
  const what = e.kind === 'kubernetes' ? `${formatInteger(e.pods)} pod${e.pods === 1 ? '' : 's'}` : `${formatInteger(e.containers)} container${e.containers === 1 ? '' : 's'}`;
  return `${what}${e.cut ? ' (the newest; more exist)' : ''} · ${formatInteger(e.elapsed_ms)} ms`;
}

export function EnvironmentsCard({ environments }: { environments: ContainerEnvironment[] }) {
  return (
    <Card title="Environments" description="Each is asked on its own, within its time limit.">
      <ul class="ctr-envs" aria-label="Container environments">
        {environments.map((e) => (
          <li key={e.kind} class="ctr-env">
            <span class="ctr-env-name">{ENGINE_NAMES[e.kind]}</span>
            <Badge tone={e.state === 'ok' ? 'success' : e.state === 'unreachable' ? 'warning' : 'danger'}>{STATE_TEXT[e.state]}</Badge>
            <code class="inline-code ctr-env-endpoint" title={e.endpoint}>{e.endpoint}</code>
            <span class={e.state === 'ok' ? 'muted' : 'ctr-env-problem'}>{e.state === 'ok' ? countText(e) : e.message}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

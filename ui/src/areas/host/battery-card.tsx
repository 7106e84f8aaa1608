import { Card } from '../../components/card.js';
import { batteryTone, formatShare } from './host-format.js';
import type { BatteryRow } from './host-api.js';
import { Meter } from './meter.js';

/** Below this share of its design capacity a battery is worn (perch's health finding). */
const WORN_PERCENT = 70;

const stateOf = (b: BatteryRow): string => (b.charging ? 'Charging' : b.plugged ? 'Plugged in, not charging' : 'On battery');

/** Each battery's charge, whether it charges, and its health (full charge against design capacity). */
export function BatteryCard({ batteries }: { batteries: readonly BatteryRow[] }) {
  const [first] = batteries;
  return (
    <Card title={batteries.length === 1 ? 'Battery' : 'Batteries'} description="Health: what a full charge holds against what it held new" class="host-card">
      <div class="host-figure">
        <span class={`host-figure-value tone-${batteryTone(first.percent, first.plugged)}`}>{formatShare(first.percent)}</span>
        <span class="host-figure-label">{stateOf(first)}</span>
      </div>
      {batteries.map((b) => (
        <div class="host-battery" key={b.name}>
          <Meter label={batteries.length > 1 ? `${b.name}: charge` : 'Charge'} percent={b.percent} value={formatShare(b.percent)} tone={batteryTone(b.percent, b.plugged) === 'neutral' ? 'accent' : batteryTone(b.percent, b.plugged)}
            detail={batteries.length > 1 ? stateOf(b) : undefined} />
          {b.health_percent !== null ? (
            <Meter label="Health" percent={b.health_percent} value={formatShare(b.health_percent)} tone={b.health_percent < WORN_PERCENT ? 'warning' : 'accent'}
              detail={b.health_percent < WORN_PERCENT ? 'Worn: consider a replacement' : undefined} />
          ) : <p class="host-note">The firmware does not give the design capacity, so health is unknown.</p>}
        </div>
      ))}
    </Card>
  );
}

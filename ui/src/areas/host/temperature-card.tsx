import { Card } from '../../components/card.js';
import { formatCelsius, LIMITS, limitTone, meterTone } from './host-format.js';
import type { LiveReading } from './host-api.js';
import { Meter } from './meter.js';

/** The bars' scale, °C: a sensor at 100 fills its bar (CPUs throttle near there). */
const SCALE_C = 100;

/** The hottest sensor, and every sensor hottest first. */
export function TemperatureCard({ now }: { now: LiveReading }) {
  const sensors = [...now.temperatures].sort((a, b) => b.celsius - a.celsius);
  const hottest = sensors[0];
  return (
    <Card title="Temperatures" description={`Each sensor the kernel exposes; the alert default is ${LIMITS.temperature.danger} °C`} class="host-card">
      <div class="host-figure">
        <span class={`host-figure-value tone-${limitTone(hottest.celsius, LIMITS.temperature)}`}>{formatCelsius(hottest.celsius)}</span>
        <span class="host-figure-label">hottest: {sensorName(hottest)}</span>
      </div>
      <div class="host-sensors">
        {sensors.map((s, i) => {
          const tone = meterTone(s.celsius, LIMITS.temperature);
          return <Meter key={`${s.chip}/${s.label}/${i}`} compact label={sensorName(s)} percent={(s.celsius / SCALE_C) * 100} value={formatCelsius(s.celsius)} tone={tone} />;
        })}
      </div>
    </Card>
  );
}

const sensorName = (s: { chip: string; label: string }): string => (s.label && s.label !== s.chip ? `${s.chip} ${s.label}` : s.chip);

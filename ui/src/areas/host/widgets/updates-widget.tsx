// Pending updates of the native package manager (perch's `updates` tile, every 300 s: apt's simulation takes seconds).
import { Pending } from '../../../home/widget-parts.js';
import type { InstalledPackages } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import type { WidgetProps } from '../../types.js';

const EVERY_MS = 300_000;

export default function UpdatesWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<InstalledPackages>('/api/installed?updatable=true&limit=12', EVERY_MS);
  if (!data) return <Pending error={error} what="updates" />;
  if (data.managers.length === 0) return <p class="widget-note">No package manager here.</p>;
  return (
    <div class="updates-widget">
      <p class="widget-figure">{data.updatable}<span class="widget-figure-unit"> update{data.updatable === 1 ? '' : 's'}</span></p>
      <p class="widget-note">{data.manager}{data.updates_known ? ', as of the last refresh' : ': not known yet'}</p>
      {data.rows.length > 0 && (
        <ul class="widget-list" aria-label="Packages with updates">
          {data.rows.slice(0, Math.max(1, size.h * 2 - 1)).map((p) => <li key={p.name}><span>{p.name}</span><span>{p.new_version}</span></li>)}
        </ul>
      )}
    </div>
  );
}

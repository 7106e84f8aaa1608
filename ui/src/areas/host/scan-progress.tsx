// A running scan's bar: the time budget used (the figure a person can plan by), the counts so far, the folder being
// read, and a cancel button; once it ends, how it ended.
import { formatInteger } from '../../format/numbers.js';
import type { Scan } from './files-api.js';
import { formatBytes } from './host-format.js';

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

export function ScanProgress({ scan, onCancel, extra }: { scan: Scan; onCancel(): void; extra?: string }) {
  const c = scan.counts;
  const counts = `${formatInteger(c.files)} files, ${formatInteger(c.dirs)} folders, ${formatBytes(c.bytes)}${c.errors ? `, ${formatInteger(c.errors)} unreadable` : ''}${c.skipped ? `, ${formatInteger(c.skipped)} not entered (links, other filesystems)` : ''}`;
  if (scan.state !== 'running') {
    return (
      <div class={`scan-status${scan.stop && scan.stop !== 'results' ? ' scan-status-early' : ''}`} role="status">
        <p><strong>{scan.state === 'failed' ? 'Failed' : scan.stop ? 'Stopped early' : 'Finished'}</strong> in {seconds(scan.elapsed_ms)}: {counts}.</p>
        {scan.note && <p class="scan-note">{scan.note}</p>}
      </div>
    );
  }
  const used = Math.min(100, (scan.elapsed_ms / Math.max(1, scan.budget_ms)) * 100);
  return (
    <div class="scan-status" role="status" aria-live="polite">
      <div class="scan-progress-line">
        <progress class="scan-progress" max={100} value={used} aria-label={`Time budget used: ${Math.round(used)}%`} />
        <button type="button" class="button button-secondary button-small" onClick={onCancel}>Cancel</button>
      </div>
      <p><strong>Scanning…</strong> {counts}{extra ? `; ${extra}` : ''}. {seconds(scan.budget_ms - scan.elapsed_ms)} of the {seconds(scan.budget_ms)} budget left.</p>
      {scan.current && <p class="scan-current"><code title={scan.current}>{scan.current}</code></p>}
    </div>
  );
}

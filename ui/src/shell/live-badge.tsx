import { streamStatus } from '../data/live.js';

const labels = {
  idle: 'Not live',
  connecting: 'Connecting…',
  live: 'Live',
  paused: 'Paused',
  retrying: 'Reconnecting…',
} as const;

/** Whether the page's data is streaming in now. */
export function LiveBadge() {
  const status = streamStatus.value;
  return (
    <span class={`live-badge live-${status}`} role="status" title={status === 'live' ? 'Updates arrive as traffic is captured' : undefined}>
      <span class="live-dot" aria-hidden="true" />
      {labels[status]}
    </span>
  );
}

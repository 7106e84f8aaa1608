// Where the host tiles get their figures, at a cadence that fits each answer's cost (perch's): the overview (a few
// /proc reads) every 2.5 s, shared by every tile that shows it; the full live reading from the 2 s live stream
// (host.live, sampled on the server only while a page subscribes), with one GET for the first paint.
import { useState } from 'preact/hooks';
import type { HostLive, HostOverview } from '../../../data/api.gen.js';
import { useLive } from '../../../data/live.js';
import { usePolled } from '../../../home/shared-poll.js';

export const OVERVIEW_EVERY_MS = 2500;
/** The live GET is the first paint and the fallback while the stream reconnects; the stream brings the rest. */
const LIVE_FALLBACK_MS = 60_000;

export const useHostOverview = () => usePolled<HostOverview>('/api/overview', OVERVIEW_EVERY_MS);

/** The newest full reading: from the stream when it has spoken, else the GET. */
export function useHostLive(): { data: HostLive | undefined; error: ReturnType<typeof usePolled>['error'] } {
  const polled = usePolled<HostLive>('/api/host/live', LIVE_FALLBACK_MS);
  const [streamed, setStreamed] = useState<HostLive | undefined>(undefined);
  useLive('host.live', (data) => setStreamed(data as HostLive));
  const newest = streamed && (!polled.data || streamed.taken_at >= polled.data.taken_at) ? streamed : polled.data;
  return { data: newest, error: polled.error };
}

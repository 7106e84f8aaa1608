import type { AlertReading, AlertSource } from '@vigil/plugin-sdk';
import type { CaptureService, RollupWindow } from '../../../gateway/exchange/capture-service.js';

const METRICS: { id: string; summary: string; unit: string; reading: (w: RollupWindow) => AlertReading }[] = [
  { id: 'gateway.error_rate', summary: 'Share of the gateway\'s requests answered 5xx or with its own error (0..1)', unit: 'ratio', reading: (w) => ({ value: w.requests ? w.errors / w.requests : null, samples: w.requests }) },
  { id: 'gateway.p95_latency_ms', summary: 'P95 latency of the gateway\'s requests (estimated from the minute rollups\' buckets)', unit: 'ms', reading: (w) => ({ value: w.p95_latency_ms, samples: w.requests }) },
  { id: 'gateway.requests', summary: 'Requests through the gateway in the window', unit: 'count', reading: (w) => ({ value: w.requests, samples: w.requests }) },
];

/** The gateway sources, built on capture's minute rollups through its service; windows are whole minutes. */
export function gatewaySources(capture: CaptureService): AlertSource[] {
  const windows = (to: number, stepMs: number, count: number, route: string | undefined) =>
    capture.rollupWindows({ to, stepMs, count, ...(route !== undefined ? { route } : {}) });
  return METRICS.map((m) => ({
    id: m.id, summary: m.summary, unit: m.unit, scopes: ['route'],
    read: async (window, scope) => m.reading((await windows(window.to, window.to - window.from, 1, scope.route))[0]),
    series: async (range, scope) => (await windows(range.to, range.stepMs, range.count, scope.route)).map(m.reading),
  }));
}

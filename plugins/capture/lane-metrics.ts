// The telemetry lane's metrics, registered once: the outcome of every exchange, the bodies it came without, the bytes
// it holds, WASM failures, field overflows, metered tokens and the records a middleware sent that the agent changed.
import { sandboxFailuresCounter, type ByteBudget, type PluginContext } from '@vigil/plugin-sdk';
import type { FieldOverflow } from '../../gateway/fields/api-fields.js';

export type LaneMetrics = ReturnType<typeof laneMetrics>;

export function laneMetrics(metrics: PluginContext['metrics'], budget: ByteBudget) {
  const outcomes = metrics.counter('vigil_capture_records_total', {
    help: 'Exchanges through the telemetry lane, by outcome: stored, store_failed, govern_failed (refused by governance), or dropped (lane full).',
    labelNames: ['outcome'],
  });
  const droppedBodies = metrics.counter('vigil_capture_bodies_dropped_total', {
    help: 'Bodies captured exchanges came without, because the lane held capture.queue_bytes of body copies already (the record says so).',
    labelNames: ['part'],
  });
  metrics.gauge('vigil_capture_queue_bytes', {
    help: 'Bytes of body copies the telemetry lane holds now: being filled by the proxy, queued, batched, or in a worker (bounded by capture.queue_bytes).',
    collect: (g) => g.set(budget.held),
  });
  const fieldOverflow = metrics.counter('vigil_capture_fields_overflow_total', {
    help: 'Field observations left out because a bound was reached: cap="route" (fields of one route), cap="total" (routes).',
    labelNames: ['cap'],
  });
  const routeOverflow = fieldOverflow.labels('route');
  const totalOverflow = fieldOverflow.labels('total');
  return {
    stored: outcomes.labels('stored'),
    storeFailed: outcomes.labels('store_failed'),
    dropped: outcomes.labels('dropped'),
    refused: outcomes.labels('govern_failed'),
    droppedRequestBodies: droppedBodies.labels('request_body'),
    droppedResponseBodies: droppedBodies.labels('response_body'),
    sandboxFailures: sandboxFailuresCounter(metrics),
    countOverflow(o: FieldOverflow | undefined): void {
      if (o?.route) routeOverflow.inc(o.route);
      if (o?.total) totalOverflow.inc(o.total);
    },
    tokens: metrics.counter('vigil_tokens_total', { help: 'Tokens metered from governed records (meter.tokens).', labelNames: ['route', 'tenant'] }),
    regoverned: metrics.counter('vigil_capture_records_regoverned_total', {
      help: 'Records from a middleware (POST /api/gateway/records) that the agent\'s own policy changed before storing them, by reason: '
        + 'header, query_param, json_field, detector (a value it masks was in clear), restrict (a part it restricts was there), '
        + 'body_dropped (a body it could not govern), govern_failed (metadata kept only), route_restricted (not stored: its route captures nothing). '
        + 'A record counts once under each of its reasons.',
      labelNames: ['reason'],
    }),
  };
}

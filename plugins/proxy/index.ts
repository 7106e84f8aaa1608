import { definePlugin } from '@vigil/plugin-sdk';
import type { GatewayPolicy } from '../../gateway/govern/policy-service.js';
import { checkServiceBounds, proxyServiceSchema, resolveProxyOptions, type ProxyServiceConfig } from './config.js';
import { LabelDimensions } from './label-dimensions.js';
import { registerStatusRoute } from './status-route.js';

/**
 * The gateway's traffic lane: a reverse proxy on `service.listen` in front of `service.upstream`. Live traffic is
 * never modified. It decides each request with the governance plugin's policy, and publishes the exchanges whose
 * decision captures something on `gateway.exchange` for the telemetry lane (the `capture` plugin).
 */
export default definePlugin<ProxyServiceConfig>({
  name: 'proxy',
  version: '0.1.0',
  configKeys: ['service'],
  configSchema: proxyServiceSchema,
  needs: ['policy', 'capture', 'http'],
  /** Keys that must agree with each other (a request buffer within the memory all buffers share). */
  checkConfig: (service) => checkServiceBounds(service),
  async setup(ctx, service) {
    // The traffic lane (undici) loads only when a config enables the gateway.
    const [{ TrafficLane }, { TrafficMetrics }] = await Promise.all([import('./traffic-lane.js'), import('./traffic-metrics.js')]);
    const policy = ctx.services.get('policy');
    const capture = ctx.services.get('capture');
    const dimensions = new LabelDimensions(policy.current.compiled.rules);
    const lane = new TrafficLane({
      options: resolveProxyOptions(service),
      policy: policy.current.compiled,
      dimensions,
      metrics: new TrafficMetrics(ctx.metrics, dimensions.names),
      bus: ctx.bus,
      maxBodyBytes: capture.maxBodyBytes,
      copyBudget: { take: (bytes) => capture.takeBodyBytes(bytes), give: (bytes) => capture.giveBodyBytes(bytes) },
      log: ctx.log,
      report: ctx.contain('traffic lane', (err: unknown) => { throw err; }),
    });
    registerStatusRoute(ctx.http, lane, service.upstream);
    const unsubscribe = policy.subscribe({
      /** The label names are the traffic metrics' dimensions, fixed while the process runs. */
      check(next: GatewayPolicy) {
        const names = new LabelDimensions(next.compiled.rules).names;
        if (names.length !== dimensions.names.length || names.some((n) => !dimensions.names.includes(n))) {
          throw new Error(`rules: the label names (${dimensions.names.join(', ') || 'none'} → ${names.join(', ') || 'none'}) are the traffic metrics' dimensions and change only on a restart`);
        }
      },
      apply: (next) => lane.usePolicy(next.compiled),
    });
    return {
      start: () => lane.start(),
      async stop() {
        unsubscribe();
        await lane.stop();
      },
    };
  },
});

import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ConfigValueError, definePlugin, fileDigests, type TelemetryPolicy } from '@vigil/plugin-sdk';
import { compilePolicy } from '../../policies/compile.js';
import { PolicyError } from '../../policies/errors.js';
import { checkServiceBounds, policyOf, proxyConfigSchema, resolveProxyOptions, type ProxyConfig } from './config.js';
import { LabelDimensions } from './label-dimensions.js';
import type { PolicyConfig } from '../../policies/schema.js';
import { checkWasmModules, wasmFiles } from './wasm-modules.js';

/** The policy for the telemetry lane, with the content digest of each WASM module its rules name (paths resolved). */
function telemetryPolicy(policy: PolicyConfig): TelemetryPolicy {
  const modules = wasmFiles(policy.rules ?? [], (path) => path);
  return modules.length ? { rules: policy.rules, modules: fileDigests(modules) } : { rules: policy.rules };
}

/**
 * The gateway's traffic lane: a reverse proxy on `service.listen` in front of `service.upstream`. Live traffic is
 * never modified; exchanges whose policy decision captures something are published on `gateway.exchange` for
 * the telemetry lane (the `capture` plugin), which also receives the policy.
 */
export default definePlugin<ProxyConfig>({
  name: 'proxy',
  version: '0.1.0',
  configKeys: ['service', 'rules'],
  configSchema: proxyConfigSchema,
  needs: ['capture'],
  /**
   * Compiling the policy finds what the schema cannot (bad globs, duplicate rule names, reserved labels); the WASM
   * modules rules name must exist and load.
   */
  checkConfig(config, check) {
    try {
      new LabelDimensions(compilePolicy(policyOf(config)).rules);
    } catch (err) {
      if (err instanceof PolicyError) throw new ConfigValueError(err.where, err.message.slice(err.where.length + 2));
      const m = /^(rules\[\d+\][^:]*): (.*)$/s.exec((err as Error).message);
      if (m) throw new ConfigValueError(m[1], m[2]);
      throw err;
    }
    checkServiceBounds(config.service);
    checkWasmModules(config.rules ?? [], check?.resolvePath ?? ((p) => resolve(p)));
  },
  /** A rule's WASM module rebuilt in place applies on a reload, like a changed rule. */
  configFiles: (config, check) => wasmFiles(config.rules ?? [], check.resolvePath),
  async setup(ctx, config) {
    // The traffic lane (undici) loads only when a config enables the gateway.
    const [{ TrafficLane }, { TrafficMetrics }] = await Promise.all([import('./traffic-lane.js'), import('./traffic-metrics.js')]);
    const policyConfig = policyOf(config, ctx.resolvePath);
    const policy = compilePolicy(policyConfig);
    const dimensions = new LabelDimensions(policy.rules);
    const capture = ctx.services.get('capture');
    capture.usePolicy(telemetryPolicy(policyConfig));
    const report = ctx.contain('traffic lane', (err: unknown) => { throw err; });
    const lane = new TrafficLane({
      options: resolveProxyOptions(config.service),
      policy,
      dimensions,
      metrics: new TrafficMetrics(ctx.metrics, dimensions.names),
      bus: ctx.bus,
      maxBodyBytes: capture.maxBodyBytes,
      copyBudget: { take: (bytes) => capture.takeBodyBytes(bytes), give: (bytes) => capture.giveBodyBytes(bytes) },
      log: ctx.log,
      report,
    });
    return {
      start: () => lane.start(),
      stop: () => lane.stop(),
      /**
       * The rules change live, and so do the WASM modules they name (rebuilt in place); the listener, the upstream
       * and the label names (metric dimensions) need a restart.
       */
      reload(next) {
        const changed = next as ProxyConfig;
        if (!isDeepStrictEqual(changed.service, config.service)) throw new Error('service: a changed listener or upstream applies only on a restart');
        const nextPolicyConfig = policyOf(changed, ctx.resolvePath);
        const nextPolicy = compilePolicy(nextPolicyConfig);
        const names = new LabelDimensions(nextPolicy.rules).names;
        if (names.length !== dimensions.names.length || names.some((n) => !dimensions.names.includes(n))) {
          throw new Error(`rules: the label names (${dimensions.names.join(', ') || 'none'} → ${names.join(', ') || 'none'}) are the traffic metrics' dimensions and change only on a restart`);
        }
        capture.usePolicy(telemetryPolicy(nextPolicyConfig));
        lane.usePolicy(nextPolicy);
        config = changed;
      },
    };
  },
});

import { sandboxFailuresCounter, VigilError, type Logger, type Metrics, type Sandboxes } from '@vigil/plugin-sdk';
import type { Composition, JsSandboxHost } from './composition.js';
import { RuntimeErrors } from './errors.js';

/**
 * The runtime's shared JavaScript sandbox: started on first use (its child process costs ~100 ms), counted in
 * metrics, closed when the runtime stops. Which sandbox it is comes from the composition.
 */
export class SandboxHost {
  private js: Promise<JsSandboxHost> | undefined;
  private readonly failures;
  private readonly restarts;
  private readonly retries;

  constructor(private readonly composition: Composition, metrics: Metrics, private readonly log: Logger) {
    this.failures = sandboxFailuresCounter(metrics);
    this.restarts = metrics.counter('vigil_sandbox_restarts_total', {
      help: 'Sandbox processes or workers replaced, by sandbox and cause.', labelNames: ['sandbox', 'cause'],
    });
    this.retries = metrics.counter('vigil_sandbox_retries_total', {
      help: 'Sandboxed calls retried on a fresh process because the process running them died, by sandbox and cause.', labelNames: ['sandbox', 'cause'],
    });
  }

  private jsSandbox(): Promise<JsSandboxHost> {
    const start = this.composition.jsSandbox;
    if (!start) return Promise.reject(new VigilError(RuntimeErrors.SANDBOX_UNAVAILABLE, 'this build of the runtime has no JavaScript sandbox'));
    this.js ??= start({
      onFailure: (reason) => this.failures.labels('js', reason).inc(),
      onRestart: (cause) => { this.restarts.labels('js', cause).inc(); this.log.warn('js sandbox process replaced', { cause }); },
      onRetry: (cause) => this.retries.labels('js', cause).inc(),
    });
    return this.js;
  }

  forPlugin(): Sandboxes {
    return { loadFunction: async (source, filename) => (await this.jsSandbox()).load(source, filename) };
  }

  async close(): Promise<void> {
    const js = this.js;
    this.js = undefined;
    if (js) await (await js).close();
  }
}

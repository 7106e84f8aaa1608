import { defineErrorCodes, VigilError } from '@vigil/plugin-sdk';

/** Codes of the delivery layer (the retrying queues behind exporters and other outbound senders). */
export const DeliveryErrors = defineErrorCodes('DELIVERY', {
  OPTIONS: {
    meaning: 'A delivery queue was created with options that cannot work (no name, no send function, a count or delay out ' +
      'of range): a bug in the plugin that owns it.',
    action: 'Report it to the plugin\'s author with the message, which names the queue and the option.',
  },
  TIMEOUT: {
    meaning: 'One delivery attempt ran past its time limit (for an exporter: its `timeout`, default 10s); the batch is ' +
      'retried like any transient failure.',
    action: 'Nothing if it is rare. If it repeats, check the receiver\'s health and latency, or raise the exporter\'s ' +
      '`timeout`; `vigil_export_failed_total` counts batches that ran out of attempts.',
  },
  STOPPED: {
    meaning: 'The queue was shut down (Vigil is stopping) while an attempt was running or waiting to retry.',
    action: 'Nothing: what was not delivered within shutdown_timeout is counted in `vigil_export_dropped_total`. Raise ' +
      '`shutdown_timeout` to give deliveries more time to finish.',
  },
});

export class DeliveryOptionsError extends VigilError {
  constructor(queue: string, message: string) {
    super(DeliveryErrors.OPTIONS, `delivery queue ${JSON.stringify(queue)}: ${message}`);
    this.name = 'DeliveryOptionsError';
  }
}

export class DeliveryTimeoutError extends VigilError {
  constructor(queue: string, timeoutMs: number) {
    super(DeliveryErrors.TIMEOUT, `delivery queue ${JSON.stringify(queue)}: attempt timed out after ${timeoutMs} ms`);
    this.name = 'DeliveryTimeoutError';
  }
}

export class DeliveryStoppedError extends VigilError {
  constructor(queue: string) {
    super(DeliveryErrors.STOPPED, `delivery queue ${JSON.stringify(queue)}: shut down`);
    this.name = 'DeliveryStoppedError';
  }
}

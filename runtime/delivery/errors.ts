import { VigilError } from '@vigil/plugin-sdk';

/** Stable codes of the delivery layer. */
export const DeliveryErrorCode = {
  /** A queue was created with options that cannot work (a programming error in the plugin). */
  options: 'VIGIL_ERR_DELIVERY_OPTIONS',
  /** One attempt ran past `attemptTimeoutMs`; retried like any transient failure. */
  timeout: 'VIGIL_ERR_DELIVERY_TIMEOUT',
  /** The queue was shut down while the attempt was running or waiting to retry. */
  stopped: 'VIGIL_ERR_DELIVERY_STOPPED',
} as const;

export class DeliveryOptionsError extends VigilError {
  constructor(queue: string, message: string) {
    super(DeliveryErrorCode.options, `delivery queue ${JSON.stringify(queue)}: ${message}`);
    this.name = 'DeliveryOptionsError';
  }
}

export class DeliveryTimeoutError extends VigilError {
  constructor(queue: string, timeoutMs: number) {
    super(DeliveryErrorCode.timeout, `delivery queue ${JSON.stringify(queue)}: attempt timed out after ${timeoutMs} ms`);
    this.name = 'DeliveryTimeoutError';
  }
}

export class DeliveryStoppedError extends VigilError {
  constructor(queue: string) {
    super(DeliveryErrorCode.stopped, `delivery queue ${JSON.stringify(queue)}: shut down`);
    this.name = 'DeliveryStoppedError';
  }
}

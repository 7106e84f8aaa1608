export { createDeliveryQueue, DEFAULT_DRAIN_MS } from './delivery-queue.js';
export { backoffDelay, retryAfterOf } from './backoff.js';
export { DeliveryErrors, DeliveryOptionsError, DeliveryStoppedError, DeliveryTimeoutError } from './errors.js';

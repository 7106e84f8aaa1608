// The core that @vigil/express and @vigil/koa share: one interception code path, in-process governance, shipping.
export { VigilMiddleware, type VigilMiddlewareStats } from './vigil-middleware.js';
export type { VigilMiddlewareOptions } from './options.js';
export { INGEST_PATH } from './options.js';
export { MiddlewareError, MiddlewareErrors } from './errors.js';

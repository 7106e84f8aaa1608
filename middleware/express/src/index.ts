// @vigil/express: Vigil's API governance inside an Express app. Everything but the mounting is the shared core's.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { VigilMiddleware, type VigilMiddlewareOptions, type VigilMiddlewareStats } from '../../core/index.js';

export { MiddlewareError, MiddlewareErrors, type VigilMiddlewareOptions, type VigilMiddlewareStats } from '../../core/index.js';

/** The middleware, with the handles an app needs at shutdown and for its own health checks. */
export interface VigilExpressMiddleware extends RequestHandler {
  /** Counters: captured, sent, dropped, rejected, retries, queued. */
  stats(): VigilMiddlewareStats;
  /** Governs and sends what was captured so far (bounded by `deadlineMs`); never rejects. */
  flush(deadlineMs?: number): Promise<void>;
  /** Stops capturing and flushes; call it on shutdown. */
  close(deadlineMs?: number): Promise<void>;
}

/**
 * `app.use(vigil({ configPath, agentUrl, token }))`, first, before body parsers and compression. Throws a
 * MiddlewareError when the config file or an option is wrong; once mounted it never fails or delays a request.
 */
export function vigil(options: VigilMiddlewareOptions): VigilExpressMiddleware {
  const core = new VigilMiddleware(options);
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    core.observe(req, res);
    next();
  };
  return Object.assign(middleware, {
    stats: () => core.stats(),
    flush: (deadlineMs?: number) => core.flush(deadlineMs),
    close: (deadlineMs?: number) => core.close(deadlineMs),
  });
}

export default vigil;

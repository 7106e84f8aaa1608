import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Context as KoaContext } from 'koa';
import type { AuthPrincipal, RouteContext } from '@vigil/plugin-sdk';

type State = { auth?: AuthPrincipal; [key: string]: unknown };

/**
 * What a plugin's handler sees: the SDK's RouteContext over Koa's context. Koa stays behind it, and the query is
 * a plain object (Koa's `ctx.query` setter would re-serialise it and lose the coerced types).
 */
export class KoaRouteContext implements RouteContext {
  params: Record<string, string>;
  query: Record<string, unknown>;
  readonly request: { body?: unknown } = {};
  /** Whether the handler chose the status itself. */
  statusSet = false;

  constructor(private readonly koa: KoaContext, params: Record<string, string>, query: Record<string, unknown>) {
    this.params = params;
    this.query = query;
  }

  get method(): string { return this.koa.method; }
  get path(): string { return this.koa.path; }
  get url(): string { return this.koa.url; }
  get ip(): string { return this.koa.ip; }
  get headers(): IncomingHttpHeaders { return this.koa.headers; }
  get status(): number { return this.koa.status; }
  set status(value: number) { this.koa.status = value; this.statusSet = true; }
  get body(): unknown { return this.koa.body; }
  set body(value: unknown) { this.koa.body = value; }
  get type(): string { return this.koa.type; }
  set type(value: string) { this.koa.type = value; }
  set(field: string, value: string | string[]): void { this.koa.set(field, value); }
  get req(): IncomingMessage { return this.koa.req; }
  get res(): ServerResponse { return this.koa.res; }
  get state(): State { return this.koa.state as State; }
}

/**
 * The RouteContext an auth scheme sees during a websocket upgrade: request fields only. There is no response yet,
 * so writing a status or body is an error a scheme author sees at once.
 */
export class UpgradeRouteContext implements RouteContext {
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly ip: string;
  readonly headers: IncomingHttpHeaders;
  params: Record<string, string> = {};
  query: Record<string, unknown>;
  readonly request: { body?: unknown } = {};
  readonly state: State = {};
  type = '';

  constructor(readonly req: IncomingMessage, url: URL) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.path = url.pathname;
    this.ip = req.socket.remoteAddress ?? '';
    this.headers = req.headers;
    this.query = Object.fromEntries(url.searchParams);
  }

  get status(): number { return 101; }
  set status(_value: number) { throw new Error('a websocket upgrade has no response status to set'); }
  get body(): unknown { return undefined; }
  set body(_value: unknown) { throw new Error('a websocket upgrade has no response body to set'); }
  set(): void { throw new Error('a websocket upgrade has no response headers to set'); }
  get res(): ServerResponse { throw new Error('a websocket upgrade has no ServerResponse'); }
}

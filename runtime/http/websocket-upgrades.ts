import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { settledWithin, VigilError, type Counter, type Gauge, type Logger } from '@vigil/plugin-sdk';
import { assertAllowedHost, type HostAllowList } from './allowed-hosts.js';
import { sessionHandleOf, type Authenticator } from './authentication.js';
import type { DashboardSessions } from './dashboard-sessions.js';
import { HttpErrors, LockedOutError, PluginFailure, UnauthorizedError } from './errors.js';
import type { SiteClassifier } from './request-site.js';
import { userAllows } from './route-access.js';
import { UpgradeRouteContext } from './route-context.js';
import type { RouteTable } from './route-table.js';

export interface WebSocketGatewayOptions {
  table: RouteTable;
  authenticator: Authenticator;
  /** A socket opened with a session is closed (1008) when the session ends. */
  sessions: DashboardSessions;
  allowedHosts: HostAllowList;
  sites: SiteClassifier;
  /** Largest message accepted, in bytes. */
  maxPayload: number;
  log: Logger;
  onPluginError(plugin: string, err: unknown): void;
  /** `vigil_control_plane_open_websockets{route}` */
  open: Gauge;
  /** `vigil_control_plane_websocket_upgrades_total{route,status}` */
  upgrades: Counter;
}

/** Answers an upgrade request with an HTTP error and closes the socket: nothing was upgraded. */
function refuse(socket: Duplex, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { code, message } });
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extra}\r\n${body}`,
  );
}

/**
 * Websocket endpoints on the control plane's server ('upgrade' event, `ws` in noServer mode). An upgrade must name
 * an allowed Host (a rebound name is refused even with a matching Origin), must carry an Origin equal to the control
 * plane's own (and fetch metadata, when sent, must agree), and is then authenticated like a route: a page on another
 * site cannot open a socket, nor make one count towards the lockout.
 */
export class WebSocketGateway {
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<WebSocket>();
  private closing = false;

  constructor(private readonly options: WebSocketGatewayOptions) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
  }

  /** The server's 'upgrade' listener. */
  readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => { /* the client went away; nothing to answer */ });
    this.upgrade(req, socket, head).catch((err) => {
      // The path only: a query string could hold a token.
      this.options.log.error('websocket upgrade failed', { err: err as Error, path: (req.url ?? '').split('?')[0] });
      if (socket.writable) refuse(socket, 500, HttpErrors.INTERNAL, 'internal error');
    });
  };

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://control-plane.invalid');
    const registered = this.options.table.sockets.get(url.pathname);
    const count = (status: number): void => this.options.upgrades.labels(registered?.definition.path ?? 'unmatched', String(status)).inc();
    try {
      assertAllowedHost(req, this.options.allowedHosts);
    } catch (err) {
      count(421);
      return refuse(socket, 421, (err as VigilError).code, (err as Error).message);
    }
    if (!registered) {
      count(404);
      return refuse(socket, 404, HttpErrors.NOT_FOUND, `no websocket at ${url.pathname}`);
    }
    if (this.closing) {
      count(503);
      return refuse(socket, 503, HttpErrors.UNAVAILABLE, 'the control plane is shutting down');
    }
    const origin = req.headers.origin;
    const site = this.options.sites.classify(req.headers);
    // Browsers always send Origin with an upgrade, so one that is missing or null is refused with the foreign ones.
    if (typeof origin !== 'string' || origin === 'null' || site !== 'same-origin') {
      count(403);
      return refuse(socket, 403, HttpErrors.FORBIDDEN_ORIGIN,
        `websocket upgrades need an Origin header equal to the control plane's own origin${origin ? `, not ${JSON.stringify(origin)}` : ''}`);
    }
    const ctx = new UpgradeRouteContext(req, url);
    const authenticator = this.options.authenticator;
    let principal;
    try {
      principal = await authenticator.authenticate(registered.auth, ctx, site);
    } catch (err) {
      if (err instanceof PluginFailure) {
        this.options.onPluginError(err.plugin, err.cause);
        count(500);
        return refuse(socket, 500, HttpErrors.INTERNAL, 'internal error');
      }
      if (err instanceof VigilError && err.status >= 400 && err.status < 500) {
        count(err.status);
        const headers: Record<string, string> = {};
        if (err instanceof LockedOutError) headers['Retry-After'] = String(err.retryAfterSeconds);
        if (err instanceof UnauthorizedError) headers['WWW-Authenticate'] = 'Bearer realm="vigil"';
        return refuse(socket, err.status, err.code, err.message, headers);
      }
      throw err;
    }
    const user = registered.auth === 'dashboard' ? principal?.user : undefined;
    if (user && !userAllows(user, { role: registered.role, project: null })) {
      count(403);
      return refuse(socket, 403, HttpErrors.ROLE_REQUIRED, `this websocket needs the ${registered.role} role on this instance`);
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      count(101);
      const route = registered.definition.path;
      this.sockets.add(ws);
      this.options.open.labels(route).inc();
      ws.on('error', (err) => this.options.log.debug('websocket error', { plugin: registered.plugin, path: route, err }));
      const handle = sessionHandleOf(principal);
      const release = handle === null ? undefined : this.options.sessions.hold(handle, () => ws.close(1008, 'the dashboard session ended'));
      ws.on('close', () => {
        release?.();
        this.sockets.delete(ws);
        this.options.open.labels(route).dec();
      });
      try {
        registered.definition.handler(ws, req, principal);
      } catch (err) {
        this.options.onPluginError(registered.plugin, err);
        ws.close(1011, 'internal error');
      }
    });
  }

  /** Refuses new upgrades, closes open sockets with 1001 (going away), and terminates those still open after `timeoutMs`. */
  async close(timeoutMs: number): Promise<void> {
    this.closing = true;
    if (this.sockets.size > 0) {
      const closed = Promise.all([...this.sockets].map((ws) => new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1001, 'server shutting down');
      })));
      await settledWithin(closed, timeoutMs, { unref: true });
      for (const ws of this.sockets) ws.terminate();
    }
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

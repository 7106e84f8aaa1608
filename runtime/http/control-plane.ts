import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { DEFAULT_LINGER, settledWithin, type HttpRoutes, type PluginAuditEntry, type LingerLimits, type Logger } from '@vigil/plugin-sdk';
import type { MetricsRegistry } from '../metrics/index.js';
import { canonicalHost, HostAllowList } from './allowed-hosts.js';
import { Authenticator, sessionHandleOf } from './authentication.js';
import { registerBuiltinRoutes } from './builtin-routes.js';
import { controlPlaneMetrics } from './control-plane-metrics.js';
import { registerLoginRoutes } from './dashboard-login.js';
import { DashboardSessions, type SessionPolicy } from './dashboard-sessions.js';
import { controlPlaneError, HttpErrors } from './errors.js';
import { baseUrl, parseListen } from './listen-address.js';
import { FailureLockout } from './lockout.js';
import { SiteClassifier } from './request-site.js';
import { errorBoundary, hostGuard, routeMiddleware, tokenExchange, unmatched, type PipelineOptions } from './request-pipeline.js';
import { CONTROL_PLANE_OWNER, RouteTable } from './route-table.js';
import { createSchemaCompiler } from './schema-validation.js';
import type { SessionBackend } from './session-backend.js';
import { MemorySessionBackend } from './session-memory.js';
import { registerSessionRoutes } from './session-routes.js';
import { StoreSessionBackend } from './session-table.js';
import type { StoreBackend } from '../store/index.js';
import { WebSocketGateway } from './websocket-upgrades.js';
import { AuditLog } from '../auth/audit-log.js';
import { OidcRelyingParty, type OidcSettings } from '../auth/oidc-client.js';
import type { SignInPolicy } from '../auth/oidc-sign-in.js';
import { UserDirectory } from '../auth/user-directory.js';
import { UserTable } from '../auth/user-table.js';
import { registerAuditRoutes } from './audit-routes.js';
import { registerOidcRoutes } from './oidc-routes.js';
import { registerUserRoutes } from './user-routes.js';

export interface ControlPlaneOptions {
  /** `'127.0.0.1:9095'`, `':9095'` (every interface) or `9095` (loopback). */
  listen: string | number;
  tls?: { certFile: string; keyFile: string };
  /** SHA-256 hex of the dashboard token. */
  tokenHash: string;
  /**
   * Where dashboard sessions are recorded: the core store (`vigil_sessions`, shared by every process on the same
   * database), or, without one, this process's memory.
   */
  sessionStore?: StoreBackend;
  /**
   * Single sign-on (`control_plane.oidc`, resolved): needs `sessionStore`, which also keeps the users, their roles and
   * the audit log. Without a store only the dashboard token logs in.
   */
  oidc?: { settings: OidcSettings; policy: SignInPolicy };
  /** Instead of `sessionStore`, a session backend of the caller's (tests). */
  sessionBackend?: SessionBackend;
  /** Default request body limit, in bytes. */
  bodyLimit: number;
  lockout: { maxFailures: number; windowMs: number };
  /**
   * Host names (or IP literals) the control plane answers to besides the listen host, `localhost`, `127.0.0.1` and
   * `::1`; any other Host gets 421 (allowed-hosts.ts). `*` turns the check off.
   */
  allowedHosts?: readonly string[];
  /** Whether `/metrics` needs the dashboard token too. */
  metricsAuth: boolean;
  registry: MetricsRegistry;
  log: Logger;
  info: { title: string; version: string };
  /** A route handler or auth scheme of `plugin` threw something other than an HttpError. */
  onPluginError?(plugin: string, err: unknown): void;
  health(): { status: 'ok' | 'starting' | 'stopping'; [k: string]: unknown };
  /** Absolute lifetime (default 7 days), idle timeout (default 1 day) and recheck bound (2 s) of sessions, in ms. */
  sessionPolicy?: Partial<SessionPolicy>;
  /** The clock of session expiry, epoch ms (tests). */
  now?: () => number;
  /** How long `close()` waits for requests and websockets before cutting them, in ms. Default 3,000. */
  closeTimeoutMs?: number;
  /**
   * After an answer given before the request body was read (a 413 on the announced length), how long and how many
   * bytes the rest is read and discarded before the connection closes. Default 5 s, 32 MiB.
   */
  linger?: LingerLimits;
  /**
   * Check every JSON answer against the route's declared response, answering 500 on a mismatch. For test runs; off by
   * default (then it costs nothing). Default: VIGIL_VALIDATE_RESPONSES=1 in the environment.
   */
  validateResponses?: boolean;
}

export interface ControlPlane {
  /** Route, auth scheme and websocket registration for one plugin; its routes are tagged with its name. */
  forPlugin(plugin: string): HttpRoutes;
  /** Starts listening once plugins registered their routes; rejects with a clear error if the port is taken. */
  listen(): Promise<void>;
  /** Base URL, e.g. `http://127.0.0.1:9095`; the real port once listening (also for port 0). */
  readonly url: string;
  /** Stops accepting, closes websockets, waits a bounded time for requests in flight. Idempotent. */
  close(): Promise<void>;
}

function optionsError(problem: string): Error {
  return controlPlaneError(HttpErrors.OPTIONS, `control plane: ${problem}`);
}

function checkOptions(o: ControlPlaneOptions): void {
  if (typeof o.tokenHash !== 'string' || !/^[0-9a-f]{64}$/.test(o.tokenHash)) throw optionsError('tokenHash must be a SHA-256 hex digest');
  for (const [name, value] of Object.entries(o.sessionPolicy ?? {})) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw optionsError(`sessionPolicy.${name} must be a positive number of ms`);
  }
  if (!Number.isInteger(o.bodyLimit) || o.bodyLimit < 0) throw optionsError(`bodyLimit must be a whole number of bytes, got ${String(o.bodyLimit)}`);
  if (!Number.isInteger(o.lockout?.maxFailures) || o.lockout.maxFailures < 1) throw optionsError('lockout.maxFailures must be a positive integer');
  if (!(o.lockout.windowMs > 0)) throw optionsError('lockout.windowMs must be positive');
  if (o.allowedHosts !== undefined && !Array.isArray(o.allowedHosts)) throw optionsError('allowedHosts must be an array of host names');
  o.allowedHosts?.forEach((entry, i) => {
    if (entry !== '*' && (typeof entry !== 'string' || canonicalHost(entry) === undefined)) {
      throw optionsError(`control_plane.allowed_hosts[${i}] ${JSON.stringify(entry)} is not a host name or IP address; write a bare name ` +
        'such as vigil.example.com or 192.168.1.5, without a scheme or a port');
    }
  });
}

async function readTls(tls: { certFile: string; keyFile: string }): Promise<{ cert: Buffer; key: Buffer }> {
  const read = async (file: string, what: string): Promise<Buffer> => {
    try {
      return await readFile(file);
    } catch (err) {
      throw controlPlaneError(HttpErrors.TLS, `control_plane.tls: cannot read the ${what} ${file}: ${(err as Error).message}`, err);
    }
  };
  return { cert: await read(tls.certFile, 'certificate'), key: await read(tls.keyFile, 'key') };
}

function listenError(err: NodeJS.ErrnoException, where: string): Error {
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the address is already in use (another vigil instance?); set control_plane.listen to a free port',
    EACCES: 'permission denied; ports below 1024 need privileges, pick another port',
    EADDRNOTAVAIL: 'no network interface has this address',
    ENOTFOUND: 'the host name does not resolve',
  };
  return controlPlaneError(HttpErrors.LISTEN,
    `control plane cannot listen on ${where}: ${reasons[err.code ?? ''] ?? err.message}`, err);
}

/** The control plane: Koa + router on its own port, with auth, JSON errors, metrics, the API listing and websockets. */
export async function createControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  checkOptions(options);
  const address = parseListen(options.listen);
  const tls = options.tls ? await readTls(options.tls) : undefined;
  const protocol = tls ? 'https' : 'http';
  const metrics = controlPlaneMetrics(options.registry);
  const backend = options.sessionBackend ?? (options.sessionStore ? new StoreSessionBackend(options.sessionStore) : new MemorySessionBackend());
  const sessions = new DashboardSessions(backend, options.tokenHash, options.sessionPolicy, { log: options.log, now: options.now });
  await sessions.prepare();
  // Users, roles and the audit log live in the core store; without one, only the token (the owner) logs in.
  const store = options.sessionStore;
  if (options.oidc && !store) throw optionsError('single sign-on (control_plane.oidc) needs the store');
  const users = store ? new UserTable(store, options.now) : undefined;
  await users?.prepare();
  const directory = users ? new UserDirectory(users, options.sessionPolicy?.recheckMs ?? 2000, options.now) : undefined;
  const audit = store ? new AuditLog(store, { log: options.log, now: options.now }) : undefined;
  const rp = options.oidc && store ? new OidcRelyingParty(options.oidc.settings, store, { log: options.log, now: options.now }) : undefined;
  const router = new Router({ sensitive: true });
  let pipeline: PipelineOptions | undefined;
  const table = new RouteTable(createSchemaCompiler(), options.bodyLimit, (route) => {
    router.register(route.path, [route.method], routeMiddleware(route, pipeline!));
  }, options.validateResponses ?? process.env.VIGIL_VALIDATE_RESPONSES === '1');
  const authenticator = new Authenticator({
    tokenHash: options.tokenHash,
    sessions,
    lockout: new FailureLockout(options.lockout),
    urlLockout: new FailureLockout(options.lockout),
    table,
    users: directory,
    failures: metrics.authFailures,
    lockouts: metrics.lockouts,
  });
  const onPluginError = (plugin: string, err: unknown): void => {
    try {
      options.onPluginError?.(plugin, err);
    } catch (hookErr) {
      options.log.error('onPluginError hook threw', { plugin, err: hookErr as Error });
    }
  };
  let url = baseUrl(protocol, address.host, address.port);
  const allowedHosts = new HostAllowList(options.allowedHosts ?? [], address.host);
  const sites = new SiteClassifier(protocol, () => url);
  pipeline = {
    authenticator, sessions, allowedHosts, sites, secure: Boolean(tls), log: options.log, metrics, linger: options.linger ?? DEFAULT_LINGER, audit, onPluginError,
  };
  registerBuiltinRoutes(table, options);
  let stylesheet: string | undefined;
  const login = { authenticator, sessions, sites, secure: Boolean(tls), stylesheet: () => stylesheet, users, audit, oidc: rp };
  registerLoginRoutes(table, login);
  registerSessionRoutes(table, { sessions, secure: Boolean(tls) });
  if (users && directory && audit) {
    registerUserRoutes(table, { users, directory, sessions, audit });
    registerAuditRoutes(table, audit);
    if (rp) registerOidcRoutes(table, { rp, policy: options.oidc!.policy, users, directory, sessions, audit, secure: Boolean(tls), login });
  }

  const app = new Koa({ proxy: false });
  app.silent = true;
  app.on('error', (err: Error) => options.log.debug('koa error after the response', { err }));
  app.use(errorBoundary(pipeline));
  app.use(hostGuard(pipeline));
  app.use(tokenExchange(pipeline));
  app.use(router.routes());
  app.use(unmatched(router));

  let server: Server;
  try {
    server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, app.callback()) : createHttpServer(app.callback());
  } catch (err) {
    throw controlPlaneError(HttpErrors.TLS, `control_plane.tls: the certificate or key is not usable: ${(err as Error).message}`, err);
  }
  const gateway = new WebSocketGateway({
    table,
    authenticator,
    sessions,
    allowedHosts,
    sites,
    maxPayload: Math.max(options.bodyLimit, 64 * 1024),
    log: options.log,
    onPluginError,
    open: metrics.openWebsockets,
    upgrades: metrics.websocketUpgrades,
  });
  server.on('upgrade', gateway.onUpgrade);

  const closeTimeoutMs = options.closeTimeoutMs ?? 3000;
  let listening: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const where = `${address.host ?? '*'}:${address.port}`;
  return {
    forPlugin(plugin) {
      if (plugin === CONTROL_PLANE_OWNER) throw optionsError(`"${CONTROL_PLANE_OWNER}" is reserved for the control plane's own routes`);
      return {
        route: (definition) => { table.addRoute(plugin, definition); },
        authScheme: (name, scheme) => table.addScheme(plugin, name, scheme),
        websocket: (definition) => table.addSocket(plugin, definition),
        audit: (entry) => auditForPlugin(audit, entry),
        whenSessionEnds(principal, onEnd) {
          const handle = sessionHandleOf(principal);
          return handle === null ? () => {} : sessions.hold(handle, onEnd);
        },
        pageStylesheet(href) {
          // A path on this server: the login page's CSP allows nothing else, and the value lands in an attribute.
          if (typeof href !== 'string' || !/^\/(?![/\\])[\w\-./]+$/.test(href)) {
            throw controlPlaneError(HttpErrors.ROUTE_INVALID,
              `plugin "${plugin}": pageStylesheet(${JSON.stringify(href)}) must be a path on this server, such as /assets/login.css`);
          }
          stylesheet = href;
        },
      };
    },
    listen() {
      if (closing) return Promise.reject(optionsError('listen() after close()'));
      listening ??= (async () => {
        table.checkAuthReferences();
        await new Promise<void>((resolve, reject) => {
          const onError = (err: NodeJS.ErrnoException): void => {
            server.off('listening', onListening);
            reject(listenError(err, where));
          };
          const onListening = (): void => {
            server.off('error', onError);
            resolve();
          };
          server.once('error', onError);
          server.once('listening', onListening);
          server.listen({ host: address.host, port: address.port });
        });
        url = baseUrl(protocol, address.host, (server.address() as AddressInfo).port);
        options.log.info('control plane listening', { url });
      })();
      return listening;
    },
    get url() {
      return url;
    },
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await gateway.close(closeTimeoutMs);
        await settledWithin(stopped, closeTimeoutMs, { unref: true });
        server.closeAllConnections();
        await stopped;
        sessions.close();
      })();
      return closing;
    },
  };
}

/** A plugin's entry for the audit log: the principal's user is the actor, as for the changes the pipeline records. */
async function auditForPlugin(audit: AuditLog | undefined, entry: PluginAuditEntry): Promise<void> {
  if (!audit) return;
  const user = entry.principal?.user;
  await audit.write({
    actorId: user?.id ?? null,
    actor: user ? user.email ?? 'dashboard token' : entry.principal ? `${entry.principal.scheme}${entry.principal.subject ? ` ${entry.principal.subject}` : ''}` : 'vigil',
    action: entry.action, target: entry.target, project: null, status: entry.status, address: entry.address ?? null, detail: entry.detail ?? null,
  });
}

// The API client's routes, with Perch's names: POST /api/http sends, GET/POST /api/httpstore read and save. Sends,
// flows and store reads are for the owner (a collection may hold credentials; a send reaches any address the host can).
// Bounds: a send by its timeout and byte cap; a flow by 20 steps, each a send; an import by 4 MiB of text, parsed in
// the worker; the store by LIMITS (64 collections of 500 requests, 32 environments, 64 flows, 50 history entries).
import { httpError, type HttpRoutes, type PluginAuditEntry, type WorkerPool } from '@vigil/plugin-sdk';
import { ApiClientErrors } from './errors.js';
import { toCurl, toRawHttp } from './export-request.js';
import type { HttpStore, StoreChange } from './http-store.js';
import { isTaskFailure, type ApiClientTask, type ApiClientTaskResult } from './import-task.js';
import {
  exportInput, exportResult, flowInput, flowResult, importInput, importResult, sendInput, sendResult, storeChange, storeView,
} from './response-schemas.js';
import { scopeFor, Sender, type SendLimits } from './sender.js';
import { LIMITS, type ApiRequest, type Flow, type Imported, type ImportFormat } from './types.js';
import { placeholders } from './variables.js';

export interface ApiClientRouteDeps {
  store: HttpStore;
  pool: WorkerPool<ApiClientTask, ApiClientTaskResult>;
  limits: SendLimits;
  audit(entry: PluginAuditEntry): Promise<void>;
}

const TAGS = ['api client'];
const OWNER = 'owner' as const;

interface ScopeInput { environment_id?: string | null; variables?: Record<string, string>; timeout_ms?: number }

export function registerApiClientRoutes(http: HttpRoutes, d: ApiClientRouteDeps): void {
  const sender = new Sender(d);
  /** What both store routes answer: the saved state with the limits the page shows. */
  const storeAnswer = async () => ({ ...(await d.store.view()), limits: { ...LIMITS }, send: d.limits });

  http.route({
    method: 'GET', path: '/api/httpstore', tags: TAGS, role: OWNER,
    summary: 'Collections, environments (secret values never included: `set` says whether one is saved), the active environment, the last 50 sends and the flows',
    query: { type: 'object', properties: {} },
    response: storeView,
    handler: storeAnswer,
  });

  http.route({
    method: 'POST', path: '/api/httpstore', tags: TAGS,
    summary: 'Save collections, environments, flows or the active environment (each part named replaces what was saved), or clear the history',
    body: storeChange,
    bodyLimit: 8 * 1024 * 1024,
    response: storeView,
    async handler(ctx) {
      await d.store.apply(ctx.request.body as StoreChange);
      return storeAnswer();
    },
  });

  http.route({
    method: 'POST', path: '/api/http', tags: TAGS,
    summary: 'Send a request from the server: placeholders filled from the environment, under a timeout and a response byte cap; audited (method, masked URL, status)',
    body: sendInput,
    bodyLimit: 2 * 1024 * 1024,
    response: sendResult,
    async handler(ctx) {
      const b = ctx.request.body as ScopeInput & { request: ApiRequest };
      const { extracted: _e, failed: _f, ...result } = await sender.send(ctx, b.request, await scopeFor(d.store, b.environment_id, b.variables), b.timeout_ms);
      return result;
    },
  });

  http.route({
    method: 'POST', path: '/api/http/flow', tags: TAGS,
    summary: 'Run a flow: its steps one after the other, each step\'s extractions (a JSON path, a header, the status) filling variables of the next; stops at the first failure. At most 20 steps, each a send under its own timeout.',
    body: flowInput,
    bodyLimit: 4 * 1024 * 1024,
    response: flowResult,
    async handler(ctx) {
      const b = ctx.request.body as ScopeInput & { flow_id?: string; flow?: Flow };
      if (!b.flow && !b.flow_id) throw httpError(ApiClientErrors.BAD_REQUEST, 'name a saved flow with flow_id, or send one as flow');
      const flow = b.flow ?? await d.store.flow(b.flow_id!);
      const scope = await scopeFor(d.store, b.environment_id, b.variables);
      const steps = [];
      let completed = true;
      for (const step of flow.steps) {
        const name = step.request.name || `${step.request.method} ${step.request.url}`;
        try {
          const { extracted, failed, ...response } = await sender.send(ctx, step.request, scope, b.timeout_ms, step.extract);
          // Extracted values are not secret to the scope: they came in a response the user sees.
          for (const [k, v] of Object.entries(extracted)) { scope.values.set(k, v); scope.secret.delete(k); }
          const ok = response.status < 400 && failed.length === 0;
          steps.push({ name, ok, error: ok ? null : failed.length ? `nothing found for ${failed.join(', ')}` : `${response.status} ${response.status_text}`, extracted, missing: failed, response });
          if (!ok) { completed = false; break; }
        } catch (err) {
          steps.push({ name, ok: false, error: (err as Error).message, extracted: {}, missing: [], response: null });
          completed = false;
          break;
        }
      }
      return { steps, completed };
    },
  });

  http.route({
    method: 'POST', path: '/api/http/import', tags: TAGS,
    summary: 'Read a Postman v2.1 collection, an Insomnia v4 export, an OpenAPI 3 document (JSON or YAML) or curl commands into a collection (not saved: save it with POST /api/httpstore). At most 4 MiB, parsed in a worker.',
    body: importInput,
    bodyLimit: LIMITS.import_bytes + 64 * 1024,
    response: importResult,
    async handler(ctx) {
      const b = ctx.request.body as { text: string; format?: ImportFormat | 'auto' };
      const out = await d.pool.run({ op: 'import', text: b.text, format: b.format ?? 'auto' });
      if (isTaskFailure(out)) throw httpError(ApiClientErrors.IMPORT, out.message);
      return out as Imported;
    },
  });

  http.route({
    method: 'POST', path: '/api/http/export', tags: TAGS,
    summary: 'A request as a curl command (bash) or raw HTTP/1.1, non-secret variables filled in; secret ones left for the user to set ($NAME in curl, {{name}} in HTTP)',
    body: exportInput,
    bodyLimit: 2 * 1024 * 1024,
    response: exportResult,
    async handler(ctx) {
      const b = ctx.request.body as { request: ApiRequest; format: 'curl' | 'http'; environment_id?: string | null };
      const scope = await d.store.scope(b.environment_id);
      const used = new Set(placeholders(JSON.stringify(b.request)));
      const secrets = [...scope.secret].filter((n) => used.has(n));
      return { text: b.format === 'curl' ? toCurl(b.request, scope) : toRawHttp(b.request, scope), secrets };
    },
  });
}

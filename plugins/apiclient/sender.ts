// One send from the editor or a flow step: fill the placeholders, send under the deadline and the byte cap, view the
// body (in the worker when it is large), audit the send, add it to the history. The audit and the history never
// hold a secret: the audit's URL is masked, the history keeps the template.
import { SMALL_BODY, viewBody, type ViewResult, type ViewTask } from './body-view.js';
import { httpError, type PluginAuditEntry, type RouteContext, type WorkerPool } from '@vigil/plugin-sdk';
import { ApiClientErrors, badRequest } from './errors.js';
import type { HttpStore } from './http-store.js';
import { isTaskFailure, type ApiClientTask, type ApiClientTaskResult } from './import-task.js';
import { sendRequest, type Received, type Timings } from './send-request.js';
import type { ApiRequest, Extraction } from './types.js';
import { fillRequest, headersWithAuth, loggableUrl, type Scope } from './variables.js';

export interface SendLimits { timeout_ms: number; max_timeout_ms: number; max_response_bytes: number; display_bytes: number }

export interface SendResult {
  url: string; method: string; status: number; status_text: string; http_version: string; headers: [string, string][]; content_type: string;
  body: string; pretty: string | null; binary: boolean; size_bytes: number; shown_bytes: number; truncated: boolean; timings: Timings;
}

type Sent = SendResult & { extracted: ViewResult['extracted']; failed: string[] };

export interface SenderDeps {
  store: HttpStore;
  pool: WorkerPool<ApiClientTask, ApiClientTaskResult>;
  limits: SendLimits;
  audit(entry: PluginAuditEntry): Promise<void>;
}

/** The scope a send uses: the environment's variables, then the values given with the request (not secret). */
export async function scopeFor(store: HttpStore, environmentId: string | null | undefined, extra: Record<string, string> = {}): Promise<Scope> {
  const scope = await store.scope(environmentId);
  for (const [k, v] of Object.entries(extra)) { scope.values.set(k, v); scope.secret.delete(k); }
  return scope;
}

/**
 * Sends in flight at once, flows' steps included. Each holds up to max_response_bytes of body, so this bounds the
 * memory all sends hold together. Taken and given back synchronously around each send (no await between the check
 * and the take), so concurrent requests cannot all pass the same count.
 */
export const MAX_IN_FLIGHT = 8;

/** Characters of a request body the history keeps: 50 entries stay under 4 MB however large the bodies sent. */
export const HISTORY_BODY_CHARS = 64 * 1024;

export class Sender {
  private inFlight = 0;

  constructor(private readonly d: SenderDeps) {}

  private async view(task: ViewTask): Promise<ViewResult> {
    if (task.body.byteLength <= SMALL_BODY) return viewBody(task);
    const out = await this.d.pool.run({ op: 'view', ...task }, { transferList: [task.body.buffer] });
    if (isTaskFailure(out)) throw new Error(out.message);
    return out as ViewResult;
  }

  /** Sends `template` with `scope`; audited and recorded whatever the outcome. Refused (429) past MAX_IN_FLIGHT. */
  async send(ctx: RouteContext, template: ApiRequest, scope: Scope, timeoutMs: number | undefined, extract: Extraction[] = []): Promise<Sent> {
    if (this.inFlight >= MAX_IN_FLIGHT) throw httpError(ApiClientErrors.BUSY, `${MAX_IN_FLIGHT} requests are being sent already; send again when one is done`);
    this.inFlight++;
    try {
      return await this.sendHeld(ctx, template, scope, timeoutMs, extract);
    } finally {
      this.inFlight--;
    }
  }

  private async sendHeld(ctx: RouteContext, template: ApiRequest, scope: Scope, timeoutMs: number | undefined, extract: Extraction[]): Promise<Sent> {
    const { request, missing } = fillRequest(template, scope);
    const masked = fillRequest(template, scope, true).request;
    const shownUrl = loggableUrl(masked.url);
    if (missing.length) throw badRequest(`no value for ${missing.map((m) => `{{${m}}}`).join(', ')}: define ${missing.length > 1 ? 'them' : 'it'} in the active environment, or pick another`);
    const timeout = Math.min(timeoutMs ?? this.d.limits.timeout_ms, this.d.limits.max_timeout_ms);
    let received: Received | undefined;
    let status = 200;
    let detail = '';
    try {
      received = await sendRequest({ method: request.method, url: request.url, shownUrl, headers: headersWithAuth(request).map((h) => [h.name, h.value]), body: request.body },
        { timeoutMs: timeout, maxBytes: this.d.limits.max_response_bytes });
      detail = `${received.status} ${received.status_text}, ${received.size_bytes} bytes${received.truncated ? ' (cut at the cap)' : ''}, ${Math.round(received.timings.total_ms)} ms`;
    } catch (err) {
      status = (err as { status?: number }).status ?? 500;
      // The message may quote the URL as filled in: say only what kind of failure it was.
      detail = `failed: ${status === 504 ? 'timeout' : status === 400 ? 'not sendable' : 'unreachable'}`;
      throw err;
    } finally {
      await this.d.audit({ principal: ctx.state.auth, action: 'api client send', target: `${request.method} ${shownUrl}`, status, address: ctx.ip || null, detail });
      await this.d.store.record({ method: template.method, url: template.url, status: received?.status ?? null, duration_ms: received ? Math.round(received.timings.total_ms) : null, request: { ...template, body: template.body.slice(0, HISTORY_BODY_CHARS) } });
    }
    const contentType = received.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
    const body = new Uint8Array(received.body.buffer.slice(received.body.byteOffset, received.body.byteOffset + received.body.byteLength));
    const { view, extracted, failed } = await this.view({
      body, contentType, complete: !received.truncated, displayBytes: this.d.limits.display_bytes, extract, headers: received.headers, status: received.status,
    });
    return {
      url: shownUrl, method: request.method, status: received.status, status_text: received.status_text, http_version: received.http_version,
      headers: received.headers.slice(0, 1000), content_type: contentType, body: view.text, pretty: view.pretty, binary: view.binary,
      size_bytes: received.size_bytes, shown_bytes: view.shown_bytes, truncated: received.truncated, timings: received.timings, extracted, failed,
    };
  }
}

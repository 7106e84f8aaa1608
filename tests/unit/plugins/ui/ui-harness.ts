// A real runtime with the ui plugin (enabled by its config key, as in a config file), and the ways a browser and a
// script reach it: a session cookie from the dashboard link, and the bearer token.
import { startTestRuntime, type TestRuntime, type TestRuntimeOptions } from '@vigil/plugin-sdk/testing';

export interface UiHarness {
  rt: TestRuntime;
  /** `vigil_session=…`, from `GET /?token=`. */
  cookie: string;
  /** fetch on the control plane; redirects are not followed, nothing is sent unless given. */
  raw(path: string, init?: RequestInit): Promise<Response>;
  /** As the dashboard's own page: the session cookie, and the headers a browser adds to a same-origin request. */
  page(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

export async function startUi(options: { config?: Record<string, unknown>; plugins?: TestRuntimeOptions['plugins'] } = {}): Promise<UiHarness> {
  const rt = await startTestRuntime({ plugins: options.plugins ?? [], config: { ui: {}, ...options.config } });
  const raw = (path: string, init: RequestInit = {}) => fetch(new URL(path, rt.url), { redirect: 'manual', ...init });
  const link = await raw(`/?token=${encodeURIComponent(rt.token)}`);
  const cookie = (link.headers.getSetCookie().find((c) => c.startsWith('vigil_session=')) ?? '').split(';')[0];
  if (!cookie) {
    await rt.stop();
    throw new Error(`the dashboard link answered ${link.status} without a session cookie`);
  }
  return {
    rt,
    cookie,
    raw,
    page: (path, init = {}) => raw(path, {
      ...init,
      headers: { cookie, origin: rt.url, 'sec-fetch-site': 'same-origin', ...(init.headers as Record<string, string> | undefined) },
    }),
    stop: () => rt.stop(),
  };
}

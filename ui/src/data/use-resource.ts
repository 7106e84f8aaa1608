// A JSON resource of the control plane for a component: loading, data, error and reload, with the previous data
// kept while a reload runs (no flicker on live refreshes) and the request aborted when the key changes.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { getJson, isAbort } from './api.js';
import type { ApiError } from './api-error.js';

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** True until the first answer for the current path. */
  loading: boolean;
  /** Fetches again, keeping the current data on screen until the answer. */
  reload(): void;
}

/** GETs `path` (null: nothing to load) and again whenever it changes. */
export function useResource<T>(path: string | null, what?: string): Resource<T> {
  const [state, setState] = useState<{ path: string | null; data?: T; error?: ApiError; loading: boolean }>({ path, loading: path !== null });
  const [tick, setTick] = useState(0);
  const inFlight = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    inFlight.current?.abort();
    inFlight.current = controller;
    setState((s) => (s.path === path ? { ...s, loading: s.data === undefined && s.error === undefined } : { path, loading: true }));
    getJson<T>(path, { signal: controller.signal, what }).then(
      (data) => { if (!controller.signal.aborted) setState({ path, data, loading: false }); },
      (error) => { if (!isAbort(error) && !controller.signal.aborted) setState((s) => ({ path, data: s.path === path ? s.data : undefined, error, loading: false })); },
    );
    return () => controller.abort();
  }, [path, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  const current = state.path === path;
  return {
    data: current ? state.data : undefined,
    // A failed refresh keeps the last good data on screen; the error shows only when there is nothing else.
    error: current && state.data === undefined ? state.error : undefined,
    loading: current ? state.loading : path !== null,
    reload,
  };
}

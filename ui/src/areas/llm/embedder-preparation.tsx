// A similarity test's first run waits for the embedder's one-time preparation (the local word vectors are converted
// and loaded, seconds): while a test runs, the page asks where it stands and says so, with progress, rather than a
// bare "Testing…".
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../../data/api.js';
import { formatPercent } from '../../format/numbers.js';
import type { EmbedderStatus } from './evals-api.js';

const POLL_MS = 400;

/** The embedder's status while `active`, polled (never while the tab is hidden); undefined otherwise. */
export function useEmbedderStatus(active: boolean): EmbedderStatus | undefined {
  const [status, setStatus] = useState<EmbedderStatus>();
  useEffect(() => {
    if (!active) { setStatus(undefined); return undefined; }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (!document.hidden) {
        try {
          const next = await getJson<EmbedderStatus>('/api/llm/embeddings/status', { what: 'the embeddings status' });
          if (!stopped) setStatus(next);
        } catch { /* the test's own answer reports what went wrong */ }
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => { stopped = true; clearTimeout(timer); };
  }, [active]);
  return status;
}

const STEP_TEXT: Record<NonNullable<EmbedderStatus['step']>, string> = {
  module: 'loading the embeddings module',
  converting: 'converting the word vectors',
  loading: 'loading the word vectors',
};

/** "Preparing embeddings (one time)" with the step and a progress bar; nothing once they are ready. */
export function EmbedderPreparation({ status }: { status: EmbedderStatus | undefined }) {
  if (status?.state !== 'preparing') return null;
  const step = status.step ? STEP_TEXT[status.step] : 'starting';
  return (
    <div class="embedder-preparation" role="status">
      <p><strong>Preparing embeddings (one time)</strong>: {step}{status.progress !== null ? `, ${formatPercent(status.progress)}` : ''}…
        <span class="muted"> The first similarity eval waits for this; its time is not the eval's latency.</span></p>
      <progress max={1} value={status.progress ?? undefined} aria-label="Preparing embeddings" />
    </div>
  );
}

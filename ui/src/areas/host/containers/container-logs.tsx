// A container's or pod's output: the last lines (GET /api/ctrlogs), or followed live (GET /api/ctrlogs/follow, read
// as a stream and shown as it comes; it ends at the server's caps, when Stop is pressed or the page is left). The
// text shown is bounded here too: the newest FOLLOW_KEEP_CHARS characters.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Card } from '../../../components/card.js';
import { ErrorState } from '../../../components/error-state.js';
import { Loading } from '../../../components/skeleton.js';
import { errorFromResponse, networkError, type ApiError } from '../../../data/api-error.js';
import { useResource } from '../../../data/use-resource.js';
import { ENGINE_NAMES, logPath, type ContainerLogs, type EngineKind } from './containers-api.js';

const TAILS = [100, 500, 2000] as const;
/** Characters a followed log keeps on screen; older text is dropped from the top. */
const FOLLOW_KEEP_CHARS = 512 * 1024;

export interface LogTarget {
  env: EngineKind;
  id: string;
  /** What the card calls it: the container's name, or namespace/pod. */
  name: string;
  follow: boolean;
  /** A pod's containers, to pick one. */
  containers?: string[];
}

function useFollow(path: string | null): { text: string; state: 'idle' | 'open' | 'ended'; error?: ApiError } {
  const [text, setText] = useState('');
  const [state, setState] = useState<'idle' | 'open' | 'ended'>('idle');
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    if (!path) return undefined;
    const stop = new AbortController();
    setText('');
    setError(undefined);
    setState('open');
    void (async () => {
      try {
        const res = await fetch(path, { credentials: 'same-origin', signal: stop.signal, headers: { accept: 'text/plain, application/json' } });
        if (!res.ok) {
          const body = await res.text();
          let parsed: unknown;
          try { parsed = JSON.parse(body); } catch { parsed = undefined; }
          throw errorFromResponse(res.status, parsed, 'the log');
        }
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const piece = decoder.decode(value, { stream: true });
          setText((t) => { const next = t + piece; return next.length > FOLLOW_KEEP_CHARS ? next.slice(-FOLLOW_KEEP_CHARS) : next; });
        }
        setState('ended');
      } catch (err) {
        if ((err as Error).name === 'AbortError') return;
        setError((err as ApiError).kind ? err as ApiError : networkError('the log'));
        setState('ended');
      }
    })();
    return () => stop.abort();
  }, [path]);
  return { text, state, error };
}

export function ContainerLogsCard({ target, onClose }: { target: LogTarget; onClose(): void }) {
  const [tail, setTail] = useState<number>(TAILS[0]);
  const [following, setFollowing] = useState(false);
  const [container, setContainer] = useState(target.containers?.[0]);
  const snapshot = useResource<ContainerLogs>(following ? null : logPath(target.env, target.id, false, tail, container), 'the log');
  const live = useFollow(following ? logPath(target.env, target.id, true, tail, container) : null);
  const box = useRef<HTMLPreElement>(null);
  const text = following ? live.text : snapshot.data?.text ?? '';
  useEffect(() => { if (box.current) box.current.scrollTop = box.current.scrollHeight; }, [text]);
  const title = `Logs of ${target.name}`;
  return (
    <Card title={title} description={`${ENGINE_NAMES[target.env]} · ${following ? (live.state === 'open' ? 'following: new lines appear as they come' : 'the follow ended') : `the last ${tail} lines`}`}
      actions={<button type="button" class="button button-ghost button-small" onClick={onClose}>Close</button>}>
      <div class="toolbar ctr-log-toolbar">
        <label class="ctr-field">
          <span class="field-label">Lines</span>
          <select class="input" value={tail} onChange={(e) => setTail(Number((e.target as HTMLSelectElement).value))}>
            {TAILS.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>
        {target.containers && target.containers.length > 1 && (
          <label class="ctr-field">
            <span class="field-label">Container</span>
            <select class="input" value={container} onChange={(e) => setContainer((e.target as HTMLSelectElement).value)}>
              {target.containers.map((c) => <option key={c} value={c}>{c}</option>)}
            </select>
          </label>
        )}
        {target.follow && (
          <button type="button" class={`button button-small ${following ? 'button-secondary' : 'button-primary'}`} onClick={() => setFollowing((f) => !f)}>
            {following ? 'Stop following' : 'Follow'}
          </button>
        )}
        {!following && <button type="button" class="button button-ghost button-small" onClick={snapshot.reload}>Reload</button>}
      </div>
      {!following && snapshot.loading && !snapshot.data && <Loading label="Reading the log" lines={4} />}
      {!following && snapshot.error && <ErrorState error={snapshot.error} onRetry={snapshot.reload} compact />}
      {following && live.error && <ErrorState error={live.error} compact />}
      {(following || snapshot.data) && (
        <pre class="job-log ctr-log" ref={box} tabIndex={0} aria-label={title} aria-live={following ? 'off' : undefined}>
          {text || (following ? 'Waiting for output…' : 'It has written nothing yet.')}
        </pre>
      )}
      {!following && snapshot.data?.cut && <p class="field-hint">Cut at {Math.round(snapshot.data.max_bytes / 1024)} KiB (containers.logs.max_bytes): ask for fewer lines to see the newest whole.</p>}
    </Card>
  );
}

// Clean-up: each target measured first (GET /api/cleanup), cleaned only after a confirmation that names its size.
import { useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { postJson } from '../../data/api.js';
import { useResource } from '../../data/use-resource.js';
import type { CleanResult, CleanupTargets } from '../../data/api.gen.js';
import { announce } from '../../shell/announcer.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import { formatBytes } from './host-format.js';

export function CleanupPanel() {
  const targets = useResource<CleanupTargets>('/api/cleanup', 'the clean-up sizes');
  const [done, setDone] = useState<Record<string, CleanResult>>({});
  return (
    <Card title="Clean up" description="What each clean-up would free, measured first. Nothing is removed until you confirm.">
      {targets.error && <ErrorState error={targets.error} onRetry={targets.reload} compact />}
      {targets.loading && !targets.data && <Loading label="Measuring caches, the trash, the package cache and the journal" lines={4} />}
      {targets.data && (
        <ul class="cleanup-list">
          {targets.data.targets.map((t) => {
            const size = t.bytes === null ? 'size unknown' : `${t.complete ? '' : 'at least '}${formatBytes(t.bytes)}`;
            const result = done[t.id];
            return (
              <li key={t.id} class="cleanup-item">
                <div class="cleanup-text">
                  <p><strong>{t.title}</strong>: {size}{t.path ? <> · <code>{t.path}</code></> : null}</p>
                  <p class="muted">{t.note}</p>
                  {result && <p role="status">Freed {formatBytes(Math.max(0, (result.before ?? 0) - (result.after ?? 0)))}.</p>}
                </div>
                {t.can_clean && (t.bytes ?? 0) > 0 && (
                  <ConfirmAction small label="Clean…" confirm={`Clean ${t.title.toLowerCase()}`}
                    question={<>Remove {size} from <strong>{t.title}</strong>? This cannot be undone.</>}
                    run={async () => {
                      const r = await postJson<CleanResult>('/api/clean', { target: t.id }, { what: `cleaning ${t.title}` });
                      setDone((d) => ({ ...d, [t.id]: r }));
                      announce(`${t.title}: cleaned.`);
                      targets.reload();
                    }} />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

// The variables of one environment. A secret one is sent to the server once, stored encrypted, and shown here only as
// set or not set; leaving its field empty keeps the saved value.
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { ErrorState } from '../../../components/error-state.js';
import type { ApiError } from '../../../data/api-error.js';
import type { ApiEnvironment } from './client-api.js';

export function EnvironmentPanel({ env, onSave, onDelete, onClose }: { env: ApiEnvironment; onSave(e: ApiEnvironment): Promise<void>; onDelete(): Promise<void>; onClose(): void }) {
  const id = useId();
  const [draft, setDraft] = useState(env);
  const [error, setError] = useState<ApiError>();
  useEffect(() => setDraft(env), [env]);
  const vars = draft.variables;
  const setVar = (i: number, change: Partial<ApiEnvironment['variables'][number]>) => setDraft({ ...draft, variables: vars.map((v, j) => (j === i ? { ...v, ...change } : v)) });
  const act = async (fn: () => Promise<void>) => { setError(undefined); try { await fn(); } catch (err) { setError(err as ApiError); } };
  return (
    <Card title={`Environment: ${env.name}`} description="Placeholders such as {{baseUrl}} are filled from here when a request is sent."
      actions={<button type="button" class="button button-ghost button-small" onClick={onClose}>Close</button>}>
      <form class="ac-env" onSubmit={(e) => { e.preventDefault(); void act(() => onSave(draft)); }}>
        <div class="field">
          <label class="field-label" for={`${id}-name`}>Name</label>
          <input id={`${id}-name`} class="input" value={draft.name} onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
        </div>
        {vars.map((v, i) => (
          <div class="ac-var" key={i}>
            <input class="input input-mono" aria-label={`Variable ${i + 1} name`} value={v.name} placeholder="name" onInput={(e) => setVar(i, { name: e.currentTarget.value })} />
            {v.secret
              ? <input class="input input-mono" aria-label={`Variable ${v.name || i + 1} value`} type="password" autocomplete="new-password" value={v.value}
                placeholder={v.set ? 'set — type to replace' : 'not set'} onInput={(e) => setVar(i, { value: e.currentTarget.value })} />
              : <input class="input input-mono" aria-label={`Variable ${v.name || i + 1} value`} autocomplete="off" value={v.value}
                placeholder="value" onInput={(e) => setVar(i, { value: e.currentTarget.value })} />}
            <label class="ac-var-secret"><input type="checkbox" checked={v.secret} onChange={(e) => setVar(i, { secret: e.currentTarget.checked })} /> Secret</label>
            {v.secret && <Badge tone={v.set || v.value ? 'success' : 'neutral'}>{v.set || v.value ? 'set' : 'not set'}</Badge>}
            <button type="button" class="button button-ghost button-small" aria-label={`Remove ${v.name || `variable ${i + 1}`}`}
              onClick={() => setDraft({ ...draft, variables: vars.filter((_, j) => j !== i) })}>Remove</button>
          </div>
        ))}
        <div class="form-actions">
          <button type="button" class="button button-small" onClick={() => setDraft({ ...draft, variables: [...vars, { name: '', value: '', secret: false }] })}>Add variable</button>
          <button type="submit" class="button button-primary button-small">Save environment</button>
          <button type="button" class="button button-ghost button-small" onClick={() => void act(onDelete)}>Delete environment</button>
        </div>
      </form>
      {error && <ErrorState error={error} compact />}
    </Card>
  );
}

// GNOME tweaks (GET /api/gnome, POST /api/gnome): a few desktop settings read and written through gsettings, each
// value checked against the range gsettings reports. Where gsettings or the GNOME schemas are missing, the page says
// so; a setting whose schema is not installed (mutter's, the settings daemon's) is listed as not available here.
import { useEffect, useId, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Switch } from '../../components/switch.js';
import type { ApiError } from '../../data/api-error.js';
import { postJson } from '../../data/api.js';
import type { GnomeSettings } from '../../data/api.gen.js';
import { useResource } from '../../data/use-resource.js';
import { announce } from '../../shell/announcer.js';
import { shellInfo } from '../../shell/shell-info.js';

type Setting = GnomeSettings['settings'][number];

const CHOICE_WORDS: Record<string, string> = { default: 'Default', 'prefer-dark': 'Dark', 'prefer-light': 'Light' };

function TextSetting({ s, onSave }: { s: Setting; onSave(value: string | number): void }) {
  const id = useId();
  const [text, setText] = useState(String(s.value ?? ''));
  useEffect(() => setText(String(s.value ?? '')), [s.value]);
  const numeric = s.kind === 'number';
  const changed = text !== String(s.value ?? '');
  return (
    <form class="setting-row gnome-text" onSubmit={(e) => { e.preventDefault(); onSave(numeric ? Number(text) : text); }}>
      <div class="setting-text">
        <label class="setting-label" for={id}>{s.label}</label>
        <span class="setting-description">{s.hint}{numeric && s.min !== null ? ` From ${s.min} to ${s.max}.` : ''}</span>
      </div>
      <div class="gnome-control">
        {numeric
          ? <input id={id} class="input" type="number" step={s.integer ? 1 : 0.05} min={s.min ?? undefined} max={s.max ?? undefined} value={text} disabled={!s.writable} onInput={(e) => setText(e.currentTarget.value)} />
          : <input id={id} class="input input-mono" type="text" maxLength={256} value={text} disabled={!s.writable} onInput={(e) => setText(e.currentTarget.value)} />}
        <button type="submit" class="button button-secondary button-small" disabled={!changed || !s.writable}>Apply</button>
      </div>
    </form>
  );
}

function ChoiceSetting({ s, onSave }: { s: Setting; onSave(value: string): void }) {
  const id = useId();
  return (
    <div class="setting-row">
      <div class="setting-text">
        <label class="setting-label" for={id}>{s.label}</label>
        <span class="setting-description">{s.hint}</span>
      </div>
      <select id={id} class="input gnome-control" value={String(s.value)} disabled={!s.writable} onChange={(e) => onSave(e.currentTarget.value)}>
        {s.choices.map((c) => <option key={c} value={c}>{CHOICE_WORDS[c] ?? c}</option>)}
      </select>
    </div>
  );
}

export default function GnomePage() {
  const enabled = shellInfo.value?.plugins.includes('devtools') ?? false;
  const settings = useResource<GnomeSettings>(enabled ? '/api/gnome' : null, 'the GNOME settings');
  const [error, setError] = useState<ApiError>();
  const [fresh, setFresh] = useState<GnomeSettings>();
  const data = fresh ?? settings.data;
  const save = async (s: Setting, value: unknown) => {
    setError(undefined);
    try {
      setFresh(await postJson<GnomeSettings>('/api/gnome', { id: s.id, value }, { what: s.label }));
      announce(`${s.label} is changed.`);
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const header = <PageHeader title="GNOME tweaks" subtitle="Desktop settings read and written with gsettings, as GNOME Tweaks would. Each change is recorded in the audit log." />;
  if (!enabled) {
    return <>{header}<EmptyState icon="settings" title="GNOME tweaks are not on" actions={<CodeBlock label="the config that turns GNOME tweaks on" language="yaml" code={'devtools: {}   # the project launcher and GNOME tweaks'} />}>Add this line to the config file and restart Vigil.</EmptyState></>;
  }
  const available = data?.settings.filter((s) => s.available) ?? [];
  const missing = data?.settings.filter((s) => !s.available) ?? [];
  return (
    <>
      {header}
      {settings.error && <ErrorState error={settings.error} onRetry={settings.reload} />}
      {settings.loading && !data && <Loading label="Reading the GNOME settings" lines={5} />}
      {data && !data.available && <EmptyState icon="settings" title="No GNOME settings here"><p>{data.reason}</p></EmptyState>}
      {data?.available && (
        <Card title="Desktop" description={data.backend ? `gsettings backend: ${data.backend} (set by GSETTINGS_BACKEND in Vigil's environment).` : 'Written to dconf for the user Vigil runs as; open apps follow at once.'}>
          <div class="gnome-settings">
            {available.map((s) => (s.kind === 'boolean'
              ? <Switch key={s.id} label={s.label} description={s.hint} checked={s.value === true} disabled={!s.writable} onChange={(on) => void save(s, on)} />
              : s.kind === 'enum' ? <ChoiceSetting key={s.id} s={s} onSave={(v) => void save(s, v)} />
              : <TextSetting key={s.id} s={s} onSave={(v) => void save(s, v)} />))}
          </div>
          {error && <ErrorState error={error} compact />}
          {missing.length > 0 && <p class="muted gnome-missing">Not on this machine (their schemas are not installed): {missing.map((s) => `${s.label} (${s.schema})`).join(', ')}.</p>}
        </Card>
      )}
    </>
  );
}

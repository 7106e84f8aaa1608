// Governed records as readable JSON: indented, coloured by type, and every `[REDACTED]` the policy put there
// marked so nobody mistakes a masked value for the data.
import type { ComponentChildren } from 'preact';

/** The marker the governance plugin writes in place of a masked value (plugins/governance). */
export const REDACTED = '[REDACTED]';

/**
 * A string in which a detector masked a part (`card [REDACTED]`): escaped as JSON, with each marker marked. The
 * quotes are the caller's.
 */
function markedText(value: string): ComponentChildren {
  return value.split(REDACTED).map((part, i) => (
    <>{i > 0 && <mark class="redacted" title="Masked by the policy: the original value was never stored">{REDACTED}</mark>}{JSON.stringify(part).slice(1, -1)}</>
  ));
}

function renderValue(value: unknown, indent: number): ComponentChildren {
  if (value === null) return <span class="json-null">null</span>;
  if (typeof value === 'string') {
    if (value === REDACTED) return <mark class="redacted" title="Masked by the policy: the original value was never stored">"{REDACTED}"</mark>;
    if (value.includes(REDACTED)) return <span class="json-string">"{markedText(value)}"</span>;
    return <span class="json-string">{JSON.stringify(value)}</span>;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return <span class="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span class="json-boolean">{String(value)}</span>;
  const pad = '  '.repeat(indent + 1);
  const close = '  '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return <>[{'\n'}{value.map((v, i) => <>{pad}{renderValue(v, indent + 1)}{i < value.length - 1 ? ',' : ''}{'\n'}</>)}{close}]</>;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return (
    <>
      {'{'}{'\n'}
      {entries.map(([k, v], i) => (
        <>{pad}<span class="json-key">{JSON.stringify(k)}</span>: {renderValue(v, indent + 1)}{i < entries.length - 1 ? ',' : ''}{'\n'}</>
      ))}
      {close}{'}'}
    </>
  );
}

/** Counts the redacted values in `value`, so a view can say how many were masked. */
export function countRedacted(value: unknown): number {
  if (value === REDACTED) return 1;
  if (value && typeof value === 'object') return Object.values(value).reduce<number>((n, v) => n + countRedacted(v), 0);
  return 0;
}

/** A JSON value, pretty-printed; `label` names the block for assistive technology. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return <pre class="json-view" tabIndex={0} aria-label={label}><code>{renderValue(value, 0)}</code></pre>;
}

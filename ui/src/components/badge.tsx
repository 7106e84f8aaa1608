import type { ComponentChildren } from 'preact';
import type { Tone } from './stat.js';

/** A short label with a tone: a status, a method, a state. */
export function Badge({ tone = 'neutral', children, title }: { tone?: Tone; children: ComponentChildren; title?: string }) {
  return <span class={`badge badge-${tone}`} title={title}>{children}</span>;
}

/** The tone of an HTTP status: 5xx and 0 (no answer) danger, 4xx warning, the rest success. */
export function statusTone(status: number): Tone {
  if (status === 0 || status >= 500) return 'danger';
  if (status >= 400) return 'warning';
  return 'success';
}

// Each channel type's fields in the dashboard's form, which of them are secrets, and the settings they make.
import type { ChannelType } from './alerts-api.js';

export interface ChannelField {
  key: string;
  label: string;
  /** Entered, then only ever shown masked; left empty on an edit, the stored value stays. */
  secret?: boolean;
  required?: boolean;
  placeholder?: string;
  hint?: string;
  kind?: 'text' | 'number' | 'list' | 'select' | 'check';
  options?: string[];
}

const url = (hint: string, placeholder: string): ChannelField => ({ key: 'url', label: 'URL', secret: true, required: true, placeholder, hint });

export const CHANNEL_TYPES: { type: ChannelType; label: string; fields: ChannelField[] }[] = [
  { type: 'webhook', label: 'Webhook', fields: [
    url('Receives a JSON POST per notification.', 'https://example.com/hooks/vigil'),
    { key: 'secret', label: 'Signing secret', secret: true, hint: 'At least 16 characters; each request is signed with it (X-Vigil-Signature).' },
  ] },
  { type: 'slack', label: 'Slack', fields: [url('The incoming webhook URL.', 'https://hooks.slack.com/services/…')] },
  { type: 'discord', label: 'Discord', fields: [
    url('The webhook URL.', 'https://discord.com/api/webhooks/…'),
    { key: 'username', label: 'Post as', hint: 'Default: the webhook\'s name.' },
  ] },
  { type: 'ntfy', label: 'ntfy', fields: [
    url('The topic URL; anyone with it can read the topic.', 'https://ntfy.sh/my-alerts'),
    { key: 'token', label: 'Access token', secret: true, hint: 'For a protected topic.' },
    { key: 'priority', label: 'Priority', kind: 'number', hint: '1 to 5; default by severity.' },
    { key: 'tags', label: 'Tags', kind: 'list', hint: 'Comma-separated.' },
  ] },
  { type: 'email', label: 'Email', fields: [
    { key: 'host', label: 'SMTP server', required: true, placeholder: 'smtp.example.com' },
    { key: 'port', label: 'Port', kind: 'number', hint: 'Default 587 (STARTTLS), 465 (TLS), 25 (none).' },
    { key: 'security', label: 'Security', kind: 'select', options: ['starttls', 'tls', 'none'] },
    { key: 'user', label: 'User' },
    { key: 'password', label: 'Password', secret: true },
    { key: 'from', label: 'From', required: true, placeholder: 'Vigil <alerts@example.com>' },
    { key: 'to', label: 'To', kind: 'list', required: true, hint: 'Comma-separated addresses.' },
  ] },
  { type: 'desktop', label: 'Desktop', fields: [] },
];

export const fieldsOf = (type: ChannelType): ChannelField[] => CHANNEL_TYPES.find((t) => t.type === type)!.fields;

/** The form's text as settings: numbers and lists parsed, empty fields left out (an empty secret keeps its value). */
export function channelSettings(type: ChannelType, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(type)) {
    const v = (values[f.key] ?? '').trim();
    if (!v) continue;
    out[f.key] = f.kind === 'number' ? Number(v) : f.kind === 'list' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v;
  }
  return out;
}

/** The form's values for a channel being edited: its plain settings; secrets stay empty (the server keeps them). */
export function channelValues(type: ChannelType, settings: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fieldsOf(type)) {
    const v = settings[f.key];
    if (f.secret || v === undefined || v === null) continue;
    out[f.key] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

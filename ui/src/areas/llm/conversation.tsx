// A trace's input or output as a conversation (chat-messages.ts reads it), every [REDACTED] marked; the JSON as
// stored when it is not one, or when the reader asks for it.
import { useState } from 'preact/hooks';
import { JsonView, REDACTED } from '../../components/json-view.js';
import { Segmented } from '../../components/segmented.js';
import { prettyArguments, toConversation, type ChatMessage } from './chat-messages.js';

/** Text with each redaction marker marked, so nobody mistakes a masked value for the data. */
export function MarkedText({ text }: { text: string }) {
  const parts = text.split(REDACTED);
  return (
    <>
      {parts.map((part, i) => (
        <>{i > 0 && <mark class="redacted" title="Masked before storage: the original value was never stored">{REDACTED}</mark>}{part}</>
      ))}
    </>
  );
}

const ROLE_TEXT: Record<string, string> = { system: 'System', developer: 'Developer', user: 'User', assistant: 'Assistant', tool: 'Tool', function: 'Function' };

/** One message of a conversation, its role named and every masked value marked. */
export function Message({ m }: { m: ChatMessage }) {
  const role = ROLE_TEXT[m.role] ?? m.role;
  return (
    <li class={`message message-${ROLE_TEXT[m.role] ? m.role : 'other'}`}>
      <div class="message-head">
        <span class="message-role">{role}</span>
        {m.name && <span class="message-name">{m.name}</span>}
        {m.toolCallId && <span class="message-name">answers <code>{m.toolCallId}</code></span>}
      </div>
      {m.text && <div class="message-text"><MarkedText text={m.text} /></div>}
      {m.attachments.length > 0 && <p class="message-attachments">Not shown: {m.attachments.join(', ')}</p>}
      {m.toolCalls.map((call, i) => (
        <div class="tool-call" key={i}>
          <div class="tool-call-head">Calls <code>{call.name}</code>{call.id && <span class="muted"> · {call.id}</span>}</div>
          <pre class="tool-call-args" tabIndex={0} aria-label={`Arguments of ${call.name}`}><code><MarkedText text={prettyArguments(call.arguments)} /></code></pre>
        </div>
      ))}
      {m.extra && <JsonView value={m.extra} label={`More of this ${role.toLowerCase()} message`} />}
    </li>
  );
}

const viewOptions = [
  { value: 'conversation' as const, label: 'Conversation', description: 'Show as a conversation' },
  { value: 'json' as const, label: 'JSON', description: 'Show the JSON as stored' },
];

/** A trace's input or output: a conversation when it reads as one, with a switch to the JSON. */
export function Exchange({ value, role, label, missing = 'Not recorded.' }: { value: unknown; role: 'user' | 'assistant'; label: string; missing?: string }) {
  const messages = toConversation(value, role);
  const [view, setView] = useState<'conversation' | 'json'>('conversation');
  if (value === null || value === undefined) return <p class="muted">{missing}</p>;
  if (!messages) return <JsonView value={value} label={label} />;
  return (
    <div class="exchange">
      <Segmented<'conversation' | 'json'> label={`${label}: view`} options={viewOptions} value={view} onChange={setView} />
      {view === 'json' ? <JsonView value={value} label={label} /> : (
        <ol class="conversation" aria-label={label}>{messages.map((m, i) => <Message key={i} m={m} />)}</ol>
      )}
    </div>
  );
}

// What will be sent with the question: one chip per item, opened to read it whole, removed with its ×.
import { Icon } from '../../components/icon.js';
import type { AssistantContextItem } from '../../data/api.gen.js';

export function ContextChips({ items, onRemove }: { items: AssistantContextItem[]; onRemove(item: AssistantContextItem): void }) {
  return (
    <ul class="assistant-chips" aria-label="Sent with your question">
      {items.map((c) => (
        <li key={c.title} class="assistant-chip">
          <details>
            <summary>{c.title}</summary>
            <pre class="assistant-chip-text">{c.content}</pre>
          </details>
          <button type="button" class="button button-ghost button-icon assistant-chip-remove" aria-label={`Do not send ${c.title}`} onClick={() => onRemove(c)}>
            <Icon name="close" />
          </button>
        </li>
      ))}
    </ul>
  );
}

// The variables a trace filled into its prompt template: one row a name, its text wrapped at any width (a long URL
// or paragraph never scrolls the page sideways); values that are not text as JSON.
import { JsonView } from '../../components/json-view.js';
import { MarkedText } from './conversation.js';

export function TemplateVariables({ value }: { value: unknown }) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return <JsonView value={value} label="Template variables" />;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <p class="muted">The template has no variables.</p>;
  return (
    <dl class="template-vars">
      {entries.map(([name, v]) => (
        <div class="template-var" key={name}>
          <dt><code class="inline-code">{name}</code></dt>
          <dd>{typeof v === 'string' ? <div class="template-var-text"><MarkedText text={v} /></div> : <JsonView value={v} label={`Variable ${name}`} />}</dd>
        </div>
      ))}
    </dl>
  );
}

// JSON to an escaped string and back (Host → JSON string): a developer's small tool, run in the browser only.
import { useId, useState } from 'preact/hooks';
import { Card } from '../../../components/card.js';
import { PageHeader } from '../../../components/page-header.js';
import { Switch } from '../../../components/switch.js';
import { announce } from '../../../shell/announcer.js';
import { escapeText, MAX_INPUT_CHARS, unescapeText, type Converted } from './json-escape.js';

export default function JsonStringPage() {
  const id = useId();
  const [input, setInput] = useState('');
  const [quotes, setQuotes] = useState(true);
  const [pretty, setPretty] = useState(true);
  const [out, setOut] = useState<Converted>();
  const run = (r: Converted, what: string) => {
    setOut(r);
    announce(r.ok ? `${what}: ${r.text.length.toLocaleString('en')} characters.` : r.problem);
  };
  const copy = async () => {
    if (!out?.ok) return;
    try {
      await navigator.clipboard.writeText(out.text);
      announce('Copied.');
    } catch {
      announce('The browser refused the clipboard: select the result and copy it.');
    }
  };
  return (
    <>
      <PageHeader title="JSON string" subtitle="Turn JSON (or any text) into an escaped string literal, and an escaped string back into its text. Runs in this browser: nothing is sent anywhere." />
      <div class="stack json-string">
        <Card title="Input">
          <label class="field-label" for={`${id}-in`}>Text or escaped string</label>
          <textarea id={`${id}-in`} class="input textarea input-mono json-string-area" rows={8} spellcheck={false} maxLength={MAX_INPUT_CHARS} value={input}
            placeholder={'{"name": "vigil", "tags": ["a", "b"]}'} onInput={(e) => setInput(e.currentTarget.value)} />
          <Switch label="Outer quotes" description="Escape: wrap the result in double quotes." checked={quotes} onChange={setQuotes} />
          <Switch label="Format JSON" description="Unescape: indent the result when it is JSON." checked={pretty} onChange={setPretty} />
          <div class="form-actions">
            <button type="button" class="button button-primary" disabled={!input} onClick={() => run(escapeText(input, quotes), 'Escaped')}>Escape</button>
            <button type="button" class="button" disabled={!input.trim()} onClick={() => run(unescapeText(input, pretty), 'Unescaped')}>Unescape</button>
          </div>
        </Card>
        <Card title="Result" actions={out?.ok && <button type="button" class="button button-small" onClick={() => void copy()}>Copy</button>}>
          {!out && <p class="field-hint">Escape turns the input into a string literal; Unescape turns a literal (quotes optional) back into its text.</p>}
          {out && !out.ok && <p class="field-error" role="alert">{out.problem}</p>}
          {out?.ok && (
            <>
              <label class="field-label" for={`${id}-out`}>Result</label>
              <textarea id={`${id}-out`} class="input textarea input-mono json-string-area" rows={8} readOnly spellcheck={false} value={out.text} />
            </>
          )}
        </Card>
      </div>
    </>
  );
}

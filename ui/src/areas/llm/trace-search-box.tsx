// The traces list's full-text search: words of the stored (redacted) input and output, "a phrase", or a prefix*.
// Submitting puts the text in the URL (`q`), where the list reads it like any filter; an empty box clears it.
import { useEffect, useId, useState } from 'preact/hooks';

/** The API's cap (plugins/llm/api/trace-search-query.ts): longer text is refused there. */
const MAX_CHARS = 256;

export function TraceSearchBox({ value, onSearch }: { value: string | undefined; onSearch(q: string | null): void }) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const submit = (event: Event) => {
    event.preventDefault();
    onSearch(text.trim() ? text.trim() : null);
  };
  return (
    <form class="trace-search" role="search" onSubmit={submit} aria-label="Search the traces">
      <label class="sr-only" for={id}>Search the input and output of traces</label>
      <input id={id} type="search" class="input" value={text} maxLength={MAX_CHARS} placeholder='Words, "a phrase" or refund*'
        autoComplete="off" spellcheck={false} onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)} />
      <button type="submit" class="button button-secondary">Search</button>
    </form>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from './icon.js';

/** Puts `text` on the clipboard; false when the browser refuses (then the person selects it by hand). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A block of code or config with a copy button; `label` names it for the button and assistive technology. */
export function CodeBlock({ code, label, language }: { code: string; label: string; language?: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const pre = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (copied === 'idle') return;
    const id = setTimeout(() => setCopied('idle'), 2000);
    return () => clearTimeout(id);
  }, [copied]);
  const onCopy = async () => {
    if (await copyText(code)) return setCopied('copied');
    const range = document.createRange();
    if (pre.current) {
      range.selectNodeContents(pre.current);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    }
    setCopied('failed');
  };
  return (
    <div class="code-block">
      <div class="code-block-bar">
        <span class="code-block-label">{language ?? 'shell'}</span>
        <button type="button" class="button button-ghost button-small" onClick={onCopy} aria-label={`Copy ${label}`}>
          <Icon name={copied === 'copied' ? 'check' : 'copy'} />
          <span aria-live="polite">{copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Selected: press Ctrl+C' : 'Copy'}</span>
        </button>
      </div>
      <pre ref={pre} tabIndex={0} aria-label={label}><code>{code}</code></pre>
    </div>
  );
}

/** Inline code. */
export function Code({ children }: { children: string }) {
  return <code class="inline-code">{children}</code>;
}

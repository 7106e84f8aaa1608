// An answer as text: paragraphs, and fenced code blocks with a copy button. Never HTML: the model's text only ever
// becomes text nodes. A `vigil-action` block the server validated as a proposal shows as its card, in its place.
import type { ComponentChildren } from 'preact';
import { CodeBlock } from '../../components/code-block.js';

interface Piece { code: boolean; language: string; text: string }

/** The text cut at ``` fences; an unclosed fence (still streaming) holds the rest. */
export function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  const parts = text.split(/^```/m);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part.trim()) out.push({ code: false, language: '', text: part.trim() });
      return;
    }
    const newline = part.indexOf('\n');
    const language = newline < 0 ? part.trim() : part.slice(0, newline).trim();
    const body = newline < 0 ? '' : part.slice(newline + 1).replace(/\n$/, '');
    out.push({ code: true, language, text: body });
  });
  return out;
}

export function MessageText({ text, cards }: { text: string; cards: ReadonlyMap<string, ComponentChildren> }) {
  return (
    <div class="assistant-text">
      {pieces(text).map((p, i) => {
        if (!p.code) return p.text.split(/\n{2,}/).map((para, j) => <p key={`${i}-${j}`}>{para}</p>);
        if (p.language === 'vigil-action' && cards.has(p.text.trim())) return <div key={i}>{cards.get(p.text.trim())}</div>;
        return <CodeBlock key={i} code={p.text} label={p.language ? `${p.language} block` : 'Code block'} language={p.language || undefined} />;
      })}
    </div>
  );
}

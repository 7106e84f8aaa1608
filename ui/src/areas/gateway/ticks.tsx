/** A sentence whose `backticked` parts are code (rule names, globs, header names, JSON paths). */
export function Ticks({ text }: { text: string }) {
  const parts = text.split('`');
  return <>{parts.map((p, i) => (i % 2 === 1 ? <code class="inline-code" key={i}>{p}</code> : p))}</>;
}

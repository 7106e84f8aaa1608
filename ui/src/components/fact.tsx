import type { ComponentChildren } from 'preact';

/** One term and its value inside a `<dl class="facts">`: two columns wide, one above the other on a phone. */
export function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return <div class="fact"><dt>{term}</dt><dd>{children}</dd></div>;
}

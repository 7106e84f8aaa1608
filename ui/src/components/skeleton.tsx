/** A placeholder of the size of what is loading; announced once as "Loading …" by the region around it. */
export function Skeleton({ height = 16, width, class: className }: { height?: number; width?: string; class?: string }) {
  return <div class={`skeleton${className ? ` ${className}` : ''}`} style={{ height: `${height}px`, width }} aria-hidden="true" />;
}

/** A region that is loading: a label for assistive technology, and skeletons for the eye. */
export function Loading({ label, lines = 3 }: { label: string; lines?: number }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => <Skeleton key={i} width={i === lines - 1 ? '60%' : undefined} />)}
    </div>
  );
}

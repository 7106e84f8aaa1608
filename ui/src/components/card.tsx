import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export interface CardProps {
  title?: string;
  /** One line under the title. */
  description?: ComponentChildren;
  /** Controls at the right of the header. */
  actions?: ComponentChildren;
  /** False for content that runs to the card's edges (a table). */
  padded?: boolean;
  class?: string;
  children: ComponentChildren;
}

/** A titled surface; a labelled region for assistive technology when it has a title. */
export function Card({ title, description, actions, padded = true, class: className, children }: CardProps) {
  const id = useId();
  return (
    <section class={`card${className ? ` ${className}` : ''}`} aria-labelledby={title ? id : undefined}>
      {(title || actions) && (
        <header class="card-header">
          <div class="card-heading">
            {title && <h2 class="card-title" id={id}>{title}</h2>}
            {description && <p class="card-description">{description}</p>}
          </div>
          {actions && <div class="card-actions">{actions}</div>}
        </header>
      )}
      <div class={padded ? 'card-body' : 'card-body card-body-flush'}>{children}</div>
    </section>
  );
}

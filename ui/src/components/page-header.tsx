import type { ComponentChildren } from 'preact';

/**
 * A page's title (its one h1, which the router focuses after a navigation), a line about it, and its controls.
 */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div class="page-heading">
        <h1 class="page-title" tabIndex={-1} data-page-title>{title}</h1>
        {subtitle && <p class="page-subtitle">{subtitle}</p>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  );
}

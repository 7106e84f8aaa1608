import type { ComponentChildren } from 'preact';
import type { IconName } from '../areas/types.js';
import { Icon } from './icon.js';

export interface EmptyStateProps {
  icon?: IconName;
  title: string;
  /** What is missing and what to do next. */
  children?: ComponentChildren;
  actions?: ComponentChildren;
  /** Smaller, for inside a card. */
  compact?: boolean;
}

/** Nothing to show yet: says why, and the next step. */
export function EmptyState({ icon, title, children, actions, compact }: EmptyStateProps) {
  return (
    <div class={`empty-state${compact ? ' empty-state-compact' : ''}`}>
      {icon && <div class="empty-state-icon"><Icon name={icon} /></div>}
      <h2 class="empty-state-title">{title}</h2>
      {children && <div class="empty-state-body">{children}</div>}
      {actions && <div class="empty-state-actions">{actions}</div>}
    </div>
  );
}

import type { RouteDecision } from '../../policies/merge.js';
import { extractLabels } from '../../policies/extract-labels.js';
import type { RuleConfig } from '../../policies/schema.js';

/**
 * The policy's label dimensions: the union of every rule's label names, in order of first appearance. Each
 * request has a value for every dimension: its header's value where a matching rule defines the label and the
 * header is present (first occurrence), '' everywhere else.
 */
export class LabelDimensions {
  readonly names: readonly string[];

  constructor(rules: readonly RuleConfig[]) {
    const position = new Map<string, number>();
    // Names that clash with the built-in dimensions never get here: compiling the policy refuses them.
    for (const rule of rules) {
      for (const name of Object.keys(rule.labels ?? {})) if (!position.has(name)) position.set(name, position.size);
    }
    this.names = [...position.keys()];
  }

  /** Values of every dimension for one request, in `names` order; null when the policy defines no labels. */
  values(decision: RouteDecision, rawHeaders: readonly string[]): string[] | null {
    return this.names.length === 0 ? null : this.valuesOf(extractLabels(decision, rawHeaders));
  }

  /** The same from labels already extracted (`extractLabels`), so a captured request reads its headers once. */
  valuesOf(labels: Readonly<Record<string, string>>): string[] | null {
    if (this.names.length === 0) return null;
    return this.names.map((name) => (Object.prototype.hasOwnProperty.call(labels, name) ? labels[name] : ''));
  }
}

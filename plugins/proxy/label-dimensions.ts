import type { RouteDecision } from '../../policies/merge.js';
import type { RuleConfig } from '../../policies/schema.js';
import { ProxyError, ProxyErrorCode } from './errors.js';

/** Dimensions every traffic metric has; a policy label may not reuse these names. */
export const BUILT_IN_DIMENSIONS = ['route', 'method', 'status_class'] as const;

/**
 * The policy's label dimensions: the union of every rule's label names, in order of first appearance. Each
 * request has a value for every dimension: its header's value where a matching rule defines the label and the
 * header is present (first occurrence), '' everywhere else.
 */
export class LabelDimensions {
  readonly names: readonly string[];
  private readonly position: ReadonlyMap<string, number>;

  constructor(rules: readonly RuleConfig[]) {
    const position = new Map<string, number>();
    rules.forEach((rule, i) => {
      for (const name of Object.keys(rule.labels ?? {})) {
        if ((BUILT_IN_DIMENSIONS as readonly string[]).includes(name)) {
          throw new ProxyError(ProxyErrorCode.config,
            `rules[${i}].labels.${name}: "${name}" is a built-in dimension of the traffic metrics ` +
            `(${BUILT_IN_DIMENSIONS.join(', ')}); give the label another name, e.g. "${name}_label"`);
        }
        if (!position.has(name)) position.set(name, position.size);
      }
    });
    this.names = [...position.keys()];
    this.position = position;
  }

  /** Values of every dimension for one request, in `names` order; null when the policy defines no labels. */
  values(decision: RouteDecision, rawHeaders: readonly string[]): string[] | null {
    if (this.names.length === 0) return null;
    const out = new Array<string>(this.names.length).fill('');
    const labels = decision.labels;
    for (let l = 0; l < labels.length; l++) {
      const header = labels[l].header;
      for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
        const name = rawHeaders[i];
        if (name.length === header.length && name.toLowerCase() === header) {
          out[this.position.get(labels[l].name)!] = rawHeaders[i + 1];
          break;
        }
      }
    }
    return out;
  }
}

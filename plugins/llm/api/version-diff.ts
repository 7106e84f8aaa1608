import { LlmErrors } from '../errors.js';
import { DIFF_LIMITS, unifiedDiff, type DiffLimits, type TooLargeReason, type UnifiedDiff } from './unified-diff.js';

/** One side of a diff: a stored version's number, content hash and normalised text. */
export interface VersionText { version: number; hash: string; text: string }

/** The `diff` part of a version's answer: the diff, or why there is none and where both texts are. */
export interface DiffAnswer {
  /** `diff -u` text; '' for equal texts; null without a version to compare with, or when `too_large`. */
  diff: string | null;
  too_large: boolean;
  diff_omitted: { code: string; reason: TooLargeReason; message: string; downloads: { from: string; to: string } } | null;
}

/** Diffs remembered, and their characters in all: a hit costs no work, a miss at most the diff's budget. */
const CACHED_DIFFS = 256;
const CACHED_CHARS = 8 * 1024 * 1024;

const WHY: Record<TooLargeReason, (limits: DiffLimits) => string> = {
  size: (l) => `a text is longer than ${l.maxChars.toLocaleString('en-US')} characters`,
  edits: (l) => `more than ${l.maxEdits.toLocaleString('en-US')} lines changed`,
  work: () => 'finding the changes would take more than the diff\'s work budget',
};

/**
 * Unified diffs of prompt versions, bounded (unified-diff.ts) and remembered per (project, template, both versions
 * and their hashes): a version never changes once made, so a repeated request, or the dashboard's page reloaded,
 * costs nothing. Memory: at most CACHED_DIFFS diffs and CACHED_CHARS characters of them.
 */
export class VersionDiffs {
  private readonly cache = new Map<string, UnifiedDiff>();
  private chars = 0;

  constructor(private readonly limits: DiffLimits = DIFF_LIMITS) {}

  /** The diff from `from` to `to`, or why it is not shown, with `textPath(n)` as the download of version n's text. */
  answer(projectId: string, template: string, from: VersionText, to: VersionText, textPath: (version: number) => string): DiffAnswer {
    const result = this.diff(projectId, template, from, to);
    if ('diff' in result) return { diff: result.diff, too_large: false, diff_omitted: null };
    return {
      diff: null,
      too_large: true,
      diff_omitted: {
        code: LlmErrors.DIFF_TOO_LARGE,
        reason: result.tooLarge,
        message: `v${from.version} and v${to.version} of ${JSON.stringify(template)} are too different to show inline `
          + `(${WHY[result.tooLarge](this.limits)}): download both and compare them locally`,
        downloads: { from: textPath(from.version), to: textPath(to.version) },
      },
    };
  }

  private diff(projectId: string, template: string, from: VersionText, to: VersionText): UnifiedDiff {
    const key = JSON.stringify([projectId, template, from.version, from.hash, to.version, to.hash]);
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: eviction takes the first.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const result = unifiedDiff(from.text, to.text, { from: `${template} v${from.version}`, to: `${template} v${to.version}` }, this.limits);
    const size = 'diff' in result ? result.diff.length : 0;
    if (size > CACHED_CHARS) return result;
    this.cache.set(key, result);
    this.chars += size;
    for (const [oldest, value] of this.cache) {
      if (this.cache.size <= CACHED_DIFFS && this.chars <= CACHED_CHARS) break;
      this.cache.delete(oldest);
      this.chars -= 'diff' in value ? value.diff.length : 0;
    }
    return result;
  }
}

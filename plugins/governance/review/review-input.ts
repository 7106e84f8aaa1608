import type { ScanInput } from '../scan/scan-core.js';

/** One request as the review sees it: a stored record, a sample request made into one, or a HAR entry. */
export interface ReviewInput extends ScanInput {
  /**
   * True for a stored record: a part that is absent (null) may have been left out by the policy in force when it was
   * stored (restricted, sampled out, dropped), so what it held is unknown. In a sample, absent means absent.
   */
  stored: boolean;
  /** A stored record's: whether its bodies were selected for keeping, and why a selected body is missing. */
  sampled?: boolean;
  dropped_reason?: string | null;
}

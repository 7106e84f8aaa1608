/** What a custom rule's check sees now: the value its rule compares, and the same in words for the test button. */
export interface CheckLook {
  value: number;
  /** Plain words: `nginx.service is active`, `3.2 GB in 12,345 files (complete)`. */
  detail: string;
}

/** Why a check cannot look at all (no systemd, a path that does not exist): the rule shows it as its error. */
export class CheckUnavailable extends Error {}

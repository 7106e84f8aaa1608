import type { PackageManager } from '@vigil/plugin-sdk';

/** One installed package, as every manager's reader gives it. */
export interface PackageRow {
  manager: PackageManager;
  name: string;
  version: string;
  /** The version an update would install, or null: none known (or the manager was not asked). */
  new_version: string | null;
  /** Installed size in bytes; null where the manager does not say (snap). */
  size_bytes: number | null;
  /** One line. */
  description: string;
}

/** What a reader answers: the rows, or why there are none. */
export interface ManagerListing {
  rows: PackageRow[];
  /** Updates were asked for and answered (false: the manager could not say, `note` tells why). */
  updates_known: boolean;
  note: string | null;
}

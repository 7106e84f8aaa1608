import type { Store } from '@vigil/plugin-sdk';

/**
 * The alerting state, seed 002's table: `on`; `stopped` until started; `snoozed` for 15 min, 1 h, 4 h or 24 h,
 * back to `on` by itself when the snooze ends. While not `on`, no rule fires and no history is written (sampling,
 * charts and test notifications go on). It lives in the store, so it survives restarts and every process agrees.
 */
export type AlertingMode = 'on' | 'stopped' | 'snoozed';

export const SNOOZE_MINUTES = [15, 60, 240, 1440] as const;

export interface AlertingState {
  state: AlertingMode;
  /** Epoch ms at which a snooze ends; null otherwise. */
  until: number | null;
  changed_at: number;
}

export type AlertctlAction = 'start' | 'stop' | 'snooze' | 'enable_all' | 'disable_all' | 'clear_history';
export const ALERTCTL_ACTIONS: readonly AlertctlAction[] = ['start', 'stop', 'snooze', 'enable_all', 'disable_all', 'clear_history'];

/** The state in force at `now`: a snooze that has ended reads as `on`. */
export function inForce(stored: AlertingState, now: number): AlertingState {
  if (stored.state === 'snoozed' && stored.until !== null && now >= stored.until) return { state: 'on', until: null, changed_at: stored.until };
  return stored;
}

/** The state after `start`, `stop` or `snooze` (minutes: one of SNOOZE_MINUTES). Other actions leave it as it is. */
export function nextState(current: AlertingState, action: AlertctlAction, now: number, minutes?: number): AlertingState {
  switch (action) {
    case 'start': return { state: 'on', until: null, changed_at: now };
    case 'stop': return { state: 'stopped', until: null, changed_at: now };
    case 'snooze': {
      if (minutes === undefined || !(SNOOZE_MINUTES as readonly number[]).includes(minutes)) {
        throw new RangeError(`minutes: a snooze lasts ${SNOOZE_MINUTES.join(', ')} minutes, not ${String(minutes)}`);
      }
      return { state: 'snoozed', until: now + minutes * 60_000, changed_at: now };
    }
    default: return current;
  }
}

/** The one row of `alerts_control`. */
export class AlertingStateStore {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('control');
  }

  async get(): Promise<AlertingState> {
    const [row] = await this.store.query<{ state: string; until: number | string | null; changed_at: number | string }>(`SELECT state, until, changed_at FROM ${this.table} WHERE id = 1`);
    const stored: AlertingState = row
      ? { state: row.state as AlertingMode, until: row.until === null ? null : Number(row.until), changed_at: Number(row.changed_at) }
      : { state: 'on', until: null, changed_at: 0 };
    return inForce(stored, this.now());
  }

  async isOn(): Promise<boolean> {
    return (await this.get()).state === 'on';
  }

  async set(next: AlertingState): Promise<AlertingState> {
    await this.store.run(
      `INSERT INTO ${this.table} (id, state, until, changed_at) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET state = excluded.state, until = excluded.until, changed_at = excluded.changed_at`,
      [next.state, next.until, next.changed_at]);
    return next;
  }
}

import type { SqlValue } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/types.js';

/**
 * Groups one scan statement walks at most: each costs two index seeks (the next group, its oldest pending job). The
 * first statement of a claim walks a few more than it wants; each further one twice as many, up to this.
 */
const scanStep = 64;
/**
 * Groups one claim walks at most looking for due ones, when many hold only jobs waiting for their time. The next
 * claim goes on from where this one stopped (the cursor), so a due group further on waits a poll, not forever.
 */
const scanLimit = 4096;
/** Candidate rows one claim reads at most when it gives every due group its whole room; past it, an even share each. */
const candidateBudget = 512;

/** A due group and how many of its jobs this claim may take (its room in the worker's share). */
export interface GroupTake { group: string; take: number }

/**
 * Round-robin claims across the groups of one queue. The groups holding pending jobs are walked in name order from a
 * cursor (the last group served, per queue, in this process), wrapping once, each step an index seek on
 * vigil_jobs_fair; groups whose oldest pending job is not yet due, or that have no room in the worker's share, are
 * passed over. The due groups found are served in that order: the first job of each, then the second of each, and so
 * on up to the claim's limit. So a claim costs seeks per group, never a scan of one group's backlog, and a group with
 * thousands of due jobs delays another group's job by at most one turn of the due groups.
 */
export class RoundRobinClaim {
  private readonly cursors = new Map<string, string>();

  constructor(private readonly store: StoreBackend) {}

  /**
   * The due groups to serve, in turn order, at most `want`, skipping those `room` gives 0. Empty: nothing is due (an
   * idle poll costs one read).
   */
  async dueGroups(queue: string, want: number, room: (group: string) => number): Promise<GroupTake[]> {
    const cursor = this.cursors.get(queue);
    const found: GroupTake[] = [];
    let walked = 0;
    const collect = (rows: ScanRow[]) => {
      for (const r of rows) {
        const take = Number(r.due) === 1 ? room(r.k) : 0;
        if (take > 0 && found.length < want) found.push({ group: r.k, take });
      }
      walked += rows.length;
    };
    // After the cursor to the last group, then from the first group back to the cursor.
    const legs: { after: string | undefined; upTo: string | undefined }[] = cursor === undefined
      ? [{ after: undefined, upTo: undefined }]
      : [{ after: cursor, upTo: undefined }, { after: undefined, upTo: cursor }];
    let step = Math.min(scanStep, Math.max(8, 2 * want));
    for (const leg of legs) {
      let after = leg.after;
      for (;;) {
        const rows = await this.scan(queue, after, leg.upTo, step);
        collect(rows);
        if (found.length >= want || walked >= scanLimit) {
          // Stopped short of a full turn: the next claim starts where this walk ended, so no group is skipped for good.
          if (found.length === 0 && rows.length) this.cursors.set(queue, rows[rows.length - 1].k);
          return found;
        }
        if (rows.length < step) break;
        after = rows[rows.length - 1].k;
        step = Math.min(scanStep, 2 * step);
      }
    }
    return found;
  }

  /** Records the group served last in this claim's turn, where the next claim of this queue starts. */
  served(queue: string, turn: readonly GroupTake[], claimedGroups: ReadonlySet<string>): void {
    for (let i = turn.length - 1; i >= 0; i--) {
      if (claimedGroups.has(turn[i].group)) { this.cursors.set(queue, turn[i].group); return; }
    }
  }

  /**
   * A SELECT of the ids to claim, up to `limit`: each group's oldest due jobs (up to its take, or an even share of
   * the limit when many groups are due), ranked by their place in their group, then by the group's turn. `lock`
   * (PostgreSQL) locks the candidate rows with SKIP LOCKED, so concurrent claims take different jobs.
   */
  pickStatement(queue: string, turn: readonly GroupTake[], limit: number, lock: boolean): { sql: string; params: SqlValue[] } {
    const now = this.store.nowSql;
    const skipLocked = lock ? ' FOR UPDATE SKIP LOCKED' : '';
    if (turn.length === 1) {
      // One due group (a queue whose jobs name none, most often): its oldest, without ranking, which costs the
      // statement's preparation on every claim.
      return {
        sql: `SELECT id FROM vigil_jobs WHERE queue = ? AND state = 'pending' AND fair_group = ? AND run_at <= ${now} ORDER BY run_at, id LIMIT ?${skipLocked}`,
        params: [queue, turn[0].group, Math.min(limit, turn[0].take)],
      };
    }
    const share = turn.length * limit <= candidateBudget ? limit : Math.max(1, Math.ceil(limit / turn.length));
    const arms: string[] = [];
    const params: SqlValue[] = [];
    turn.forEach(({ group, take }, pos) => {
      arms.push(`SELECT id, ROW_NUMBER() OVER (ORDER BY run_at, id) AS rnk, ${pos} AS pos FROM (
        SELECT id, run_at FROM vigil_jobs WHERE queue = ? AND state = 'pending' AND fair_group = ? AND run_at <= ${now}
        ORDER BY run_at, id LIMIT ?${skipLocked}) c${pos}`);
      params.push(queue, group, Math.min(take, share));
    });
    params.push(limit);
    return { sql: `SELECT id FROM (${arms.join(' UNION ALL ')}) candidates ORDER BY rnk, pos LIMIT ?`, params };
  }

  /**
   * Up to `step` groups with pending jobs, in name order, after `after` (from the first when undefined) and not past
   * `upTo`, each with whether its oldest pending job is due. Each step is a seek: groups, not jobs, are walked.
   */
  private scan(queue: string, after: string | undefined, upTo: string | undefined, step: number): Promise<ScanRow[]> {
    const next = (bound: string) => `(SELECT fair_group FROM vigil_jobs WHERE queue = ? AND state = 'pending'${bound} ORDER BY fair_group LIMIT 1)`;
    const params: SqlValue[] = [queue, ...(after === undefined ? [] : [after]), queue, step];
    if (upTo !== undefined) params.push(upTo);
    params.push(queue);
    if (upTo !== undefined) params.push(upTo);
    const sql = `WITH RECURSIVE walk(k, n) AS (
        SELECT ${next(after === undefined ? '' : ' AND fair_group > ?')}, 1
        UNION ALL
        SELECT ${next(' AND fair_group > walk.k')}, n + 1 FROM walk WHERE walk.k IS NOT NULL AND n < ?${upTo === undefined ? '' : ' AND walk.k < ?'}
      )
      SELECT k, CASE WHEN (SELECT run_at FROM vigil_jobs WHERE queue = ? AND state = 'pending' AND fair_group = walk.k ORDER BY run_at LIMIT 1) <= ${this.store.nowSql}
        THEN 1 ELSE 0 END AS due
      FROM walk WHERE k IS NOT NULL${upTo === undefined ? '' : ' AND k <= ?'} ORDER BY n`;
    return this.store.query<ScanRow>(sql, params);
  }
}

type ScanRow = { k: string; due: number };

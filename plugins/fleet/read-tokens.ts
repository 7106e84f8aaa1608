import { createHash, randomBytes } from 'node:crypto';
import { httpError, type Store } from '@vigil/plugin-sdk';
import { FleetErrors } from './errors.js';

/** What the API shows of a read token: never the token, never its digest. */
export interface ReadTokenView {
  id: string;
  label: string;
  /** `••••abcd`: the token's last four characters, to tell tokens apart. */
  hint: string;
  created_at: number;
  last_used_at: number | null;
}

const PREFIX = 'vfr_';
const MAX_TOKENS = 100;
/** `last_used_at` is written at most this often per token: a peer polling every few seconds costs no write per poll. */
const TOUCH_EVERY_MS = 60_000;

export const tokenHint = (token: string): string => `••••${token.slice(-4)}`;
const digestOf = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

interface Row { id: string; label: string; hint: string; created_at: number; last_used_at: number | null; [k: string]: unknown }

/**
 * The read tokens other instances read this one's overview with. A token is 32 random bytes, shown once on creation;
 * the store keeps its SHA-256 only, so a copy of the database does not hold a usable token (a fast hash suffices for
 * 256 random bits: there is nothing to guess).
 */
export class ReadTokenStore {
  private readonly table: string;
  private readonly touched = new Map<string, number>();

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('read_tokens');
  }

  async list(): Promise<ReadTokenView[]> {
    const rows = await this.store.query<Row>(`SELECT id, label, hint, created_at, last_used_at FROM ${this.table} ORDER BY created_at, id`);
    return rows.map(view);
  }

  /** Creates a token; the answer is the only place the token appears. */
  async create(label: string): Promise<ReadTokenView & { token: string }> {
    const [{ n }] = await this.store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.table}`);
    if (Number(n) >= MAX_TOKENS) throw httpError(FleetErrors.TOO_MANY_TOKENS, `this instance holds ${MAX_TOKENS} read tokens already; revoke one first`);
    const token = PREFIX + randomBytes(32).toString('base64url');
    const row: Row = { id: randomBytes(8).toString('hex'), label, hint: tokenHint(token), created_at: this.now(), last_used_at: null };
    await this.store.run(`INSERT INTO ${this.table} (id, label, digest, hint, created_at) VALUES (?, ?, ?, ?, ?)`,
      [row.id, row.label, digestOf(token), row.hint, row.created_at]);
    return { ...view(row), token };
  }

  async revoke(id: string): Promise<void> {
    const { changes } = await this.store.run(`DELETE FROM ${this.table} WHERE id = ?`, [id]);
    if (!changes) throw httpError(FleetErrors.UNKNOWN_TOKEN, `no read token has the id ${JSON.stringify(id)}`);
    this.touched.delete(id);
  }

  /** The token's id when `token` is a live read token, else undefined. Looked up by digest: the token never reaches SQL. */
  async verify(token: string): Promise<string | undefined> {
    if (!token.startsWith(PREFIX) || token.length > 100) return undefined;
    const [row] = await this.store.query<{ id: string }>(`SELECT id FROM ${this.table} WHERE digest = ?`, [digestOf(token)]);
    if (!row) return undefined;
    const now = this.now();
    if (now - (this.touched.get(row.id) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(row.id, now);
      await this.store.run(`UPDATE ${this.table} SET last_used_at = ? WHERE id = ?`, [now, row.id]);
    }
    return row.id;
  }
}

function view(row: Row): ReadTokenView {
  return {
    id: row.id, label: row.label, hint: row.hint, created_at: Number(row.created_at),
    last_used_at: row.last_used_at === null || row.last_used_at === undefined ? null : Number(row.last_used_at),
  };
}

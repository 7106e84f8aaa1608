import type { Migration } from '@vigil/plugin-sdk';
import { TRACE_SEARCH_UP } from './trace-search-index.js';

/**
 * The LLM plugin's tables. One statement list serves both stores: SQLite reads BIGINT with INTEGER affinity and
 * DOUBLE PRECISION with REAL. Times are epoch ms; JSON is TEXT.
 *
 * - projects: settings are the project's own (over `llm.defaults`), as JSON. `source` is `config` for projects the
 *   config file declares (the file wins) and `store` for those made with the CLI or the dashboard.
 * - project_keys: only the SHA-256 of a key (hex) is kept, with a short hint for people to tell keys apart. A rotated
 *   key gets `expires_at` (the end of its grace period); an active key has none.
 * - usage: per project and UTC month, what ingest accepted, its cost, and what budget sampling dropped; ingest in
 *   every process adds to it, so plan limits and budgets hold across processes.
 * - prompt_versions: the unique (project, template, hash) makes a version's identity; the primary key on the number
 *   makes two processes that race for N+1 collide, so one retries (prompt-versions.ts).
 * - traces: the primary key is (id, created_at), as the README's storage contract says; the unique (project_id, id)
 *   is what makes a client's retried batch (same ids, new created_at) land once. `trace` is the stored item, redacted, as the API
 *   answers it; the other columns are what filters, stats and the gate read.
 * - dead_items: items the persist stage refused for good, with the reason, never retried.
 * - pending_messages (3): redacted messages from OTLP logs whose span is not stored yet.
 * - langfuse upserts (4): `llm_langfuse_state.unended_at` marks a generation created and not yet stored (the idle
 *   sweep stores it, incomplete, once it passes `llm.langfuse.unended_after`), and `revision` the entity's, readable
 *   without parsing it; `llm_traces.revision` is the Langfuse
 *   state's revision a stored trace was built from, so a replacement built from older state is refused.
 * - span_traces, spans (5, trace trees): every span of a trace with an LLM call (spans/span-store.ts).
 * - search (6): the full-text index of each stored trace's input and output (trace-search-index.ts).
 * - usage_daily (7): what billing reads (billing/): per project, UTC day of the traces' created_at and UTC day they
 *   arrived, the stored traces' count, tokens and cost, added in the transaction that inserts them (a resent batch
 *   adds nothing). Retention never deletes it: a month's bill outlives its traces.
 * - prompt registry (8): what teams add to a version (its type, config and commit message), the labels that point to
 *   versions, and every move of a label (prompts/prompt-labels.ts).
 */

export const llmMigrations: Migration[] = [
  {
    version: 1,
    name: 'projects, keys, usage, prompt versions, traces, dead items',
    up: `
      CREATE TABLE llm_projects (
        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, source TEXT NOT NULL, settings TEXT NOT NULL,
        created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
      CREATE TABLE llm_project_keys (
        key_hash TEXT PRIMARY KEY, project_id TEXT NOT NULL, source TEXT NOT NULL, hint TEXT NOT NULL,
        created_at BIGINT NOT NULL, expires_at BIGINT);
      CREATE INDEX llm_project_keys_project ON llm_project_keys (project_id);
      CREATE TABLE llm_usage (
        project_id TEXT NOT NULL, month TEXT NOT NULL, items BIGINT NOT NULL, cost_usd DOUBLE PRECISION NOT NULL,
        sampled_out BIGINT NOT NULL, PRIMARY KEY (project_id, month));
      CREATE TABLE llm_prompt_versions (
        project_id TEXT NOT NULL, template TEXT NOT NULL, version INTEGER NOT NULL, hash TEXT NOT NULL, text TEXT NOT NULL,
        created_at BIGINT NOT NULL, PRIMARY KEY (project_id, template, version));
      CREATE UNIQUE INDEX llm_prompt_versions_hash ON llm_prompt_versions (project_id, template, hash);
      CREATE TABLE llm_traces (
        id TEXT NOT NULL, created_at BIGINT NOT NULL, project_id TEXT NOT NULL, model TEXT NOT NULL, status TEXT NOT NULL,
        latency_ms DOUBLE PRECISION, input_tokens BIGINT, output_tokens BIGINT, total_tokens BIGINT, cost_usd DOUBLE PRECISION,
        template TEXT, version INTEGER, user_id TEXT, session_id TEXT, tags TEXT, trace TEXT NOT NULL,
        PRIMARY KEY (id, created_at));
      CREATE UNIQUE INDEX llm_traces_project_id ON llm_traces (project_id, id);
      CREATE INDEX llm_traces_project_time ON llm_traces (project_id, created_at);
      CREATE INDEX llm_traces_project_version ON llm_traces (project_id, template, version);
      CREATE TABLE llm_dead_items (
        id TEXT NOT NULL, project_id TEXT NOT NULL, created_at BIGINT NOT NULL, failed_at BIGINT NOT NULL,
        reason TEXT NOT NULL, item TEXT, PRIMARY KEY (project_id, id, created_at));`,
  },
  {
    version: 2,
    name: 'langfuse partial state',
    // Langfuse events of one observation come in several batches, out of order: each is merged into this state
    // (plugins/llm/langfuse). Keys are unique within a project; rows untouched for a day are deleted by retention.
    up: `CREATE TABLE llm_langfuse_state (
        project_id TEXT NOT NULL, key TEXT NOT NULL, entity TEXT NOT NULL, updated_at BIGINT NOT NULL, PRIMARY KEY (project_id, key));
      CREATE INDEX llm_langfuse_state_updated ON llm_langfuse_state (updated_at);`,
  },
  {
    version: 3,
    name: 'messages from OTLP logs waiting for their span',
    // GenAI message events (OTLP logs) and their span arrive independently: messages whose span item is not stored
    // yet wait here, already redacted, until the span's persist stage takes them (pending-messages.ts). Rows older
    // than a day are deleted by retention.
    up: `CREATE TABLE llm_pending_messages (
        project_id TEXT NOT NULL, item_id TEXT NOT NULL, input TEXT, output TEXT, created_at BIGINT NOT NULL,
        PRIMARY KEY (project_id, item_id));
      CREATE INDEX llm_pending_messages_created ON llm_pending_messages (created_at);`,
  },
  {
    version: 4,
    name: 'langfuse upserts: un-ended generations and trace revisions',
    // Langfuse shows a generation that was never ended, and applies updates that come after it was stored
    // (langfuse-upserts.ts): the sweep finds the first by this partial index; the second replace a stored trace only
    // with a newer revision. Both columns are NULL on every row written before.
    up: `ALTER TABLE llm_langfuse_state ADD COLUMN unended_at BIGINT;
      ALTER TABLE llm_langfuse_state ADD COLUMN revision BIGINT;
      CREATE INDEX llm_langfuse_state_unended ON llm_langfuse_state (unended_at) WHERE unended_at IS NOT NULL;
      ALTER TABLE llm_traces ADD COLUMN revision BIGINT;`,
  },
  {
    version: 5,
    name: 'trace trees: the spans of traces with LLM calls',
    // One row per trace (has_llm: a stored LLM call; counts of kept, dropped and cut spans) and one per span, its
    // redacted data as JSON; an LLM call's span links its item (item_id). Held traces (has_llm = 0) are deleted after
    // llm.spans.hold; kept ones with their project's retention (spans/span-retention.ts).
    up: `CREATE TABLE llm_span_traces (
        project_id TEXT NOT NULL, trace_id TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
        has_llm INTEGER NOT NULL, spans INTEGER NOT NULL, dropped INTEGER NOT NULL, truncated INTEGER NOT NULL,
        PRIMARY KEY (project_id, trace_id));
      CREATE INDEX llm_span_traces_held ON llm_span_traces (has_llm, created_at);
      CREATE INDEX llm_span_traces_time ON llm_span_traces (project_id, created_at);
      CREATE TABLE llm_spans (
        project_id TEXT NOT NULL, trace_id TEXT NOT NULL, span_id TEXT NOT NULL, source TEXT NOT NULL, parent_id TEXT,
        kind TEXT NOT NULL, name TEXT NOT NULL, start_ms DOUBLE PRECISION, end_ms DOUBLE PRECISION, status TEXT NOT NULL,
        item_id TEXT, truncated INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (project_id, trace_id, span_id));
      CREATE INDEX llm_spans_item ON llm_spans (project_id, item_id);
      CREATE INDEX llm_spans_span ON llm_spans (project_id, span_id);`,
  },
  {
    version: 6,
    name: 'full-text search of trace input and output; session and user indexes',
    // Builds the index of the traces stored so far in the migration itself (trace-search-index.ts says how).
    up: TRACE_SEARCH_UP,
  },
  {
    version: 7,
    name: 'daily usage rollup for billing',
    // Days are epoch days (created_at / 86,400,000), integers on both stores. `arrived` is the day the rows were stored:
    // a row of a past arrival day never changes again, which is what makes the usage export idempotent
    // (billing/usage-events.ts). Traces stored before this version are counted as arriving on their own day.
    up: `CREATE TABLE llm_usage_daily (
        project_id TEXT NOT NULL, day BIGINT NOT NULL, arrived BIGINT NOT NULL, items BIGINT NOT NULL, errors BIGINT NOT NULL,
        input_tokens BIGINT NOT NULL, output_tokens BIGINT NOT NULL, cost_usd DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (project_id, day, arrived));
      CREATE INDEX llm_usage_daily_day ON llm_usage_daily (day, project_id);
      INSERT INTO llm_usage_daily (project_id, day, arrived, items, errors, input_tokens, output_tokens, cost_usd)
        SELECT project_id, created_at / 86400000, created_at / 86400000, COUNT(*), SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END),
          COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cost_usd), 0)
        FROM llm_traces GROUP BY project_id, created_at / 86400000;`,
  },
  {
    version: 8,
    name: 'prompt registry: version details, labels and their history',
    // A version made by the API or the dashboard keeps its type (text or chat), config and commit message here; a
    // detected version has no row. A label names one version of a template; each move (or removal: version NULL) is
    // a history row, written in the same transaction as the move (prompts/prompt-labels.ts).
    up: `CREATE TABLE llm_prompt_details (
        project_id TEXT NOT NULL, template TEXT NOT NULL, version INTEGER NOT NULL, type TEXT NOT NULL, config TEXT,
        commit_message TEXT, created_by TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (project_id, template, version));
      CREATE TABLE llm_prompt_labels (
        project_id TEXT NOT NULL, template TEXT NOT NULL, label TEXT NOT NULL, version INTEGER NOT NULL,
        updated_at BIGINT NOT NULL, updated_by TEXT NOT NULL, PRIMARY KEY (project_id, template, label));
      CREATE TABLE llm_prompt_label_history (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, template TEXT NOT NULL, label TEXT NOT NULL, version INTEGER,
        previous_version INTEGER, at BIGINT NOT NULL, actor TEXT NOT NULL);
      CREATE INDEX llm_prompt_label_history_template ON llm_prompt_label_history (project_id, template, at);`,
  },
];

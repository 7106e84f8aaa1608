import type { Migration } from '@vigil/plugin-sdk';

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
 * - traces: the primary key is (id, created_at), as the seed says; the unique (project_id, id) is what makes a
 *   client's retried batch (same ids, new created_at) land once. `trace` is the stored item, redacted, as the API
 *   answers it; the other columns are what filters, stats and the gate read.
 * - dead_items: items the persist stage refused for good, with the reason, never retried.
 * - pending_messages (3): redacted messages from OTLP logs whose span is not stored yet.
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
];

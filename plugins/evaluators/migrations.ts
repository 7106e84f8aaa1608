import type { Migration } from '@vigil/plugin-sdk';

/**
 * The evaluators' tables. One statement list serves both stores. Times are epoch ms; JSON is TEXT.
 *
 * - definitions: per project; `source` is `config` for definitions the config file declares (the file wins).
 * - results: one per (definition, trace): a re-run replaces the earlier result, and a retried job cannot add a second.
 *   The trace's template, version and created_at are copied in, so prompt-version and time-range scores need no
 *   other plugin's table.
 * - golden_sets: expected outputs per (project, template), for semantic_similarity definitions without their own.
 * - embeddings: golden-set embeddings, computed once, keyed by the text's SHA-256, the method and the model; the
 *   vector is base64 of little-endian float32.
 * - rate: per project, when the next eval job may start (epoch ms, fractional): every process reserves its slots on
 *   this one row, so the rate holds across processes (rate-limit.ts).
 * - scores (2, 3): scores an application sent with its traces (Langfuse `score-create`, on `llm.score.received`), on the
 *   sender's scale, so apart from results. Keyed by (project, the score's own id), as Langfuse scopes score ids to a
 *   project: a batch the SDK retries stores nothing twice, and one project's id never takes another's place. Version 2
 *   keyed the id alone; version 3 rebuilds the table (SQLite cannot change a primary key in place), keeping every row.
 *   `trace_id` is the Vigil trace item the score names (null when it names only the sender's trace); `sender_trace_id`
 *   the sender's trace, which is how a trace-level score finds its items. `created_at` is the sender's timestamp.
 * - definitions.on_missing_output (4): `skip` or `score`, what a definition does with a trace without output;
 *   definitions made before it skip, the default. A skipped result is a results row with status `skipped`.
 */
export const evaluatorsMigrations: Migration[] = [
  {
    version: 1,
    name: 'definitions, results, golden sets, embedding cache, rate',
    up: `
      CREATE TABLE evaluators_definitions (
        project_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL, sample_rate DOUBLE PRECISION NOT NULL,
        template TEXT, version_min INTEGER, version_max INTEGER, settings TEXT NOT NULL, source TEXT NOT NULL,
        created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, PRIMARY KEY (project_id, id));
      CREATE TABLE evaluators_results (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, definition_id TEXT NOT NULL, trace_id TEXT NOT NULL,
        trace_created_at BIGINT NOT NULL, template TEXT, version INTEGER, score DOUBLE PRECISION, status TEXT NOT NULL,
        reason TEXT, method TEXT NOT NULL, model TEXT, tokens_in BIGINT NOT NULL, tokens_out BIGINT NOT NULL,
        cost_usd DOUBLE PRECISION, latency_ms DOUBLE PRECISION NOT NULL, details TEXT, created_at BIGINT NOT NULL);
      CREATE UNIQUE INDEX evaluators_results_trace ON evaluators_results (project_id, definition_id, trace_id);
      CREATE INDEX evaluators_results_time ON evaluators_results (project_id, created_at);
      CREATE INDEX evaluators_results_trace_time ON evaluators_results (project_id, trace_created_at);
      CREATE INDEX evaluators_results_version ON evaluators_results (project_id, template, version);
      CREATE TABLE evaluators_golden_sets (
        project_id TEXT NOT NULL, template TEXT NOT NULL, outputs TEXT NOT NULL, updated_at BIGINT NOT NULL,
        PRIMARY KEY (project_id, template));
      CREATE TABLE evaluators_embeddings (
        text_hash TEXT NOT NULL, method TEXT NOT NULL, model TEXT NOT NULL, vector TEXT NOT NULL, tokens BIGINT NOT NULL,
        created_at BIGINT NOT NULL, PRIMARY KEY (text_hash, method, model));
      CREATE TABLE evaluators_rate (project_id TEXT PRIMARY KEY, next_at DOUBLE PRECISION NOT NULL);`,
  },
  {
    version: 2,
    name: 'scores sent with traces (Langfuse score-create)',
    up: `
      CREATE TABLE evaluators_scores (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, trace_id TEXT, name TEXT NOT NULL, source TEXT NOT NULL, data_type TEXT NOT NULL,
        value_number DOUBLE PRECISION, value_text TEXT, comment TEXT, sender_trace_id TEXT, observation_id TEXT,
        created_at BIGINT NOT NULL, received_at BIGINT NOT NULL);
      CREATE INDEX evaluators_scores_trace ON evaluators_scores (project_id, trace_id);
      CREATE INDEX evaluators_scores_sender_trace ON evaluators_scores (project_id, sender_trace_id);
      CREATE INDEX evaluators_scores_time ON evaluators_scores (project_id, created_at);`,
  },
  {
    version: 3,
    name: 'score ids per project',
    up: `
      CREATE TABLE evaluators_scores_by_project (
        project_id TEXT NOT NULL, id TEXT NOT NULL, trace_id TEXT, name TEXT NOT NULL, source TEXT NOT NULL, data_type TEXT NOT NULL,
        value_number DOUBLE PRECISION, value_text TEXT, comment TEXT, sender_trace_id TEXT, observation_id TEXT,
        created_at BIGINT NOT NULL, received_at BIGINT NOT NULL, PRIMARY KEY (project_id, id));
      INSERT INTO evaluators_scores_by_project (project_id, id, trace_id, name, source, data_type, value_number, value_text, comment,
          sender_trace_id, observation_id, created_at, received_at)
        SELECT project_id, id, trace_id, name, source, data_type, value_number, value_text, comment, sender_trace_id, observation_id,
          created_at, received_at FROM evaluators_scores;
      DROP TABLE evaluators_scores;
      ALTER TABLE evaluators_scores_by_project RENAME TO evaluators_scores;
      CREATE INDEX evaluators_scores_trace ON evaluators_scores (project_id, trace_id);
      CREATE INDEX evaluators_scores_sender_trace ON evaluators_scores (project_id, sender_trace_id);
      CREATE INDEX evaluators_scores_time ON evaluators_scores (project_id, created_at);`,
  },
  {
    version: 4,
    name: 'what a definition does with a trace without output',
    up: `ALTER TABLE evaluators_definitions ADD COLUMN on_missing_output TEXT NOT NULL DEFAULT 'skip';`,
  },
  {
    version: 5,
    name: 'results by trace',
    // The scores of a page of the llm plugin's users are read by trace id (summaryByTraces), without a definition.
    up: 'CREATE INDEX evaluators_results_by_trace ON evaluators_results (project_id, trace_id);',
  },
];

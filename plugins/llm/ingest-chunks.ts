import type { IngestOutcome, IngestPipeline } from './ingest-pipeline.js';
import type { TraceItem } from './trace-item.js';
import type { LlmProject } from './types.js';

/**
 * `ingestItems` over items another protocol produced (an OTLP export, a Langfuse batch), in batches of the project's
 * `items_per_batch`: an exporter's request is not the client's batch to split, so it is never refused as too large.
 * Error indexes are those of `items`.
 */
export async function ingestInChunks(pipeline: IngestPipeline, project: LlmProject, items: readonly TraceItem[]): Promise<IngestOutcome> {
  const total: IngestOutcome = { accepted: 0, rejected: 0, sampled_out: 0, errors: [], ids: [] };
  const size = project.settings.itemsPerBatch;
  for (let at = 0; at < items.length; at += size) {
    const part = await pipeline.ingestItems(project, items.slice(at, at + size));
    total.accepted += part.accepted;
    total.rejected += part.rejected;
    total.sampled_out += part.sampled_out;
    for (const e of part.errors) total.errors.push({ ...e, index: e.index + at });
    for (const id of part.ids) total.ids.push(id);
  }
  return total;
}

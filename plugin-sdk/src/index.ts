export { definePlugin } from './plugin.js';
export type {
  PluginDefinition, PluginInstance, CommandDefinition, CommandArgs, CommandIo, CommandStore, ConfigCheckContext, ConfigFiles, ConfigDocument,
} from './plugin.js';
export type {
  PluginContext, Logger, LogFields, Bus, TopicHandler, SubscribeOptions, ServiceRegistry, RuntimeInfo, InstallMethod, StorageInfo,
  ConfigLocation,
} from './context.js';
export type { Topics, Services, UiEvent } from './registry.js';
export type { JsonSchema } from './json-schema.js';
export type { Store, Queryable, Transaction, BulkInsert, Migration, Dialect, SqlValue, Row } from './store.js';
export type {
  Jobs, JobQueue, QueuedJob, QueueOptions, IntervalOptions, EnqueueOptions, JobState,
} from './jobs.js';
export type { WorkerPools, WorkerPool, PoolOptions, Batcher, BatcherOptions } from './workers.js';
export type {
  HttpRoutes, RouteDefinition, RouteContext, HttpMethod, AuthScheme, AuthPrincipal, WebSocketRoute,
} from './http.js';
export type {
  Metrics, Counter, Gauge, Histogram, CounterChild, GaugeChild, HistogramChild, MetricOptions, HistogramOptions,
} from './metrics.js';
export {
  VigilError, PermanentError, HttpError, ConfigValueError, isPermanent, retryAfterOf, JobDeferral, defineErrorCodes, errorCatalogueOf, SdkErrors,
} from './errors.js';
export type { ErrorCodeDoc, ErrorCatalogue, ErrorCodes, ErrorCodeOf } from './errors.js';
export type { DeliveryQueue, DeliveryQueueOptions } from './delivery.js';
export { parseDuration, tryParseDuration, parseByteSize, tryParseByteSize } from './units.js';
export { tryParseSince } from './since.js';
export { retryAfterMs, MAX_RETRY_AFTER_MS } from './retry-after.js';
export { seededRandom, seedOf, type Random } from './seeded-random.js';
export type { Sandboxes, SandboxFunction, SandboxCallResult, SandboxFailureReason } from './sandboxes.js';
export { sandboxFailuresCounter } from './sandboxes.js';
export type {
  RawExchange, GovernedRecord, GovernedRecordJson, StorableRecord, CaptureService, GovernTask, GovernResult, TelemetryPolicy,
} from './gateway.js';
export { recordJson, governedRecordJson } from './gateway.js';
export { storedRecordRows, isMissingTable, type StoredRecordRow } from './stored-records.js';
export type {
  PersistedTrace, PromptVersionChange, ReceivedScore, EvalEnqueueHook, LlmService, LlmProjectRef, RecentTracesQuery, EvalResult, EvalResultEvent,
  EvalScoreScope, EvalScoreSummary, EvalResultsQuery, EvalScoreSource, RetentionHook,
} from './llm.js';
export { LLM_PROJECT_KEY_AUTH } from './llm.js';
export { uuidv7 } from './ids.js';
export { fileDigests } from './file-digests.js';
export { settledWithin } from './settled-within.js';
export { ByteBudget } from './byte-budget.js';
export { parseListenAddress, tryParseListenAddress, listenHost, type ListenAddress } from './listen-address.js';
export { lingeringClose, bodyUnread, DEFAULT_LINGER, type LingerLimits, type LingerOutcome } from './lingering-close.js';
export { isJsonContentType } from './json-content-type.js';
export { classifySegment, FIELD_LIMITS, pathTemplate, routeTemplate, singular } from './api-fields.js';
export type {
  FieldLocation, JsonKind, ValueFormat, FieldObservation, FieldOverflow, SegmentKind, RouteTemplate,
} from './api-fields.js';

export { definePlugin } from './plugin.js';
export type {
  PluginDefinition, PluginInstance, CommandDefinition, CommandArgs, CommandIo, CommandStore, ConfigCheckContext, ConfigFiles, ConfigDocument,
} from './plugin.js';
export type {
  PluginContext, Logger, LogFields, Bus, TopicHandler, SubscribeOptions, ServiceRegistry, RuntimeInfo, InstallMethod, StorageInfo,
  ConfigLocation,
} from './context.js';
export type { Topics, Services, UiEvent, UiService } from './registry.js';
export type { JsonSchema } from './json-schema.js';
export type { Store, Queryable, Transaction, BulkInsert, Migration, Dialect, SqlValue, Row } from './store.js';
export type {
  Jobs, JobQueue, QueuedJob, QueueOptions, IntervalOptions, EnqueueOptions, JobState,
} from './jobs.js';
export type { WorkerPools, WorkerPool, PoolOptions, Batcher, BatcherOptions } from './workers.js';
export type {
  HttpRoutes, PluginAuditEntry, RouteDefinition, RouteContext, HttpMethod, AuthScheme, AuthPrincipal, WebSocketRoute, DashboardRole, DashboardUser,
} from './http.js';
export {
  closedObject, nonJsonBody, isNonJsonBody, TEXT_BODY, HTML_BODY, CSV_BODY, BINARY_BODY, EVENT_STREAM_BODY, NO_BODY, type NonJsonBody, type ResponseBody,
} from './response-body.js';
export type {
  Metrics, Counter, Gauge, Histogram, CounterChild, GaugeChild, HistogramChild, MetricOptions, HistogramOptions,
} from './metrics.js';
export {
  VigilError, PermanentError, HttpError, httpError, statusOf, ConfigValueError, isPermanent, retryAfterOf, JobDeferral, defineErrorCodes,
  errorCatalogueOf, SdkErrors,
} from './errors.js';
export type { ErrorCodeDoc, ErrorCatalogue, ErrorCodes, ErrorCodeOf, HttpErrorCode } from './errors.js';
export type { DeliveryQueue, DeliveryQueueOptions } from './delivery.js';
export { parseDuration, tryParseDuration, parseByteSize, tryParseByteSize } from './units.js';
export { tryParseSince } from './since.js';
export { retryAfterMs, MAX_RETRY_AFTER_MS } from './retry-after.js';
export { httpFailure, parseRetryAfter, ReceiverRejectedError, ReceiverUnavailableError, type ReceiverErrorCodes } from './http-failure.js';
export { signBody, verifyBodySignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, DEFAULT_TOLERANCE_SECONDS } from './webhook-signature.js';
export { seededRandom, seedOf, type Random } from './seeded-random.js';
export type { Sandboxes, SandboxFunction, SandboxCallResult, SandboxFailureReason } from './sandboxes.js';
export { sandboxFailuresCounter } from './sandboxes.js';
export type {
  PersistedTrace, PersistedTraceRef, PromptVersionChange, ReceivedScore, EvalEnqueueHook, LlmService, LlmProjectRef, RecentTracesQuery, EvalResult, EvalResultEvent, EvalStatus,
  EvalScoreScope, EvalScoreSummary, EvalResultsQuery, EvalScoreSource, RetentionHook, TraceWindowsQuery, TraceWindow, MonthSpend,
} from './llm.js';
export { LLM_PROJECT_KEY_AUTH } from './llm.js';
export type {
  ChannelMessage, ChannelSeverity, ChannelDelivery, ChannelDeliveryState, ChannelDeliveryRequest, ChannelSummary, ChannelTestResult, ChannelsService,
} from './channels.js';
export { CHANNEL_SEVERITIES } from './channels.js';
export type {
  AlertScope, AlertScopeKey, AlertWindow, AlertSeriesRange, AlertReading, AlertBudgetReading, AlertSource, AlertSourceInfo, AlertEventStatus,
  AlertEventView, AlertEventsQuery, AlertEventSource, AlertsService, ManagedAlertRule, ManagedAlertRuleView, AlertingStateView,
  AlertEventsBySourceQuery, AlertDigest,
} from './alerts.js';
export { ALERT_SCOPE_KEYS, ALERT_EVENT_SCHEMA } from './alerts.js';
export { uuidv7 } from './ids.js';
export { fileDigests } from './file-digests.js';
export { settledWithin } from './settled-within.js';
export { pathWithin } from './path-within.js';
export { insertWithinCap, type RowCap } from './capped-insert.js';
export { ByteBudget } from './byte-budget.js';
export { parseListenAddress, tryParseListenAddress, listenHost, type ListenAddress } from './listen-address.js';
export { lingeringClose, bodyUnread, DEFAULT_LINGER, type LingerLimits, type LingerOutcome } from './lingering-close.js';
export { isJsonContentType } from './json-content-type.js';
export { csvCell } from './csv-cell.js';
export { parseSearchTerms, fts5Match, tsQuery, searchMatch, type SearchTerm, type SearchLimits } from './full-text-search.js';
export type { ContainerEnvironmentKind, ContainersService, FirewallState, HostInterfaceCounters, HostNetworkService, HostOverview, HostService, ReachableListener } from './host.js';
export { HOST_OVERVIEW_SCHEMA } from './host.js';
export type {
  PrivilegeService, PrivilegeStatus, PrivilegedRequest, PrivilegedResult, PrivilegedJobRequest, PrivilegedVerb, PackageManager, ElevationMethod,
} from './privilege.js';
export { PRIVILEGED_VERBS, PACKAGE_MANAGERS, SYSTEMCTL_UNIT_ACTIONS } from './privilege.js';
export { SecretBox, type SecretBoxOwner } from './secret-box.js';
export { verifyRelease, type VerifyInput, type VerifyReport } from './release-verify.js';
export type { TerminalSource, TerminalSourcesService, TerminalStream } from './terminal.js';

// The control plane's API types, generated from its OpenAPI document (GET /api) by tests/integration/ui-api-types.test.ts.
// Do not edit: change a route's schema, then run `npm run api-types` to write this file again.
export type About = {
  version: string;
  install_method: "git checkout" | "npm package" | "global npm package" | "npx" | "source tree";
  data_dir: string;
  config_file: string | null;
  storage: StorageInfo;
  /** Epoch ms. */
  started_at: number;
  uptime_s: number;
  /** The Node.js version, e.g. v22.3.0. */
  node: string;
  /** OS and architecture, e.g. linux x64. */
  platform: string;
  /** The control plane's base URL. */
  control_plane: string;
  plugins: PluginVersion[];
};

export type AdminAccounts = {
  groups: AdminGroup[];
  /** Accounts other than root with user id 0. */
  uid_zero: string[];
};

export type AdminGroup = {
  name: string;
  members: string[];
};

/** gt/lt {threshold} (strictly past it), gte/lte {threshold} (at it or past); pct_change {direction: up|down|either, pct}; anomaly {z, default 3}; budget {pct of the cap, default 100}; prompt_version_change. */
export type AlertCondition = {
  type: "gt" | "lt" | "gte" | "lte" | "pct_change" | "anomaly" | "budget" | "prompt_version_change";
  threshold?: number;
  direction?: "up" | "down" | "either";
  pct?: number;
  z?: number;
};

export type AlertEvent = {
  id: string;
  rule_id: string;
  rule_name: string;
  /** The rule's source metric, e.g. `llm.error_rate`. */
  source: string;
  /** The rule's scope: project, template, version, model, route, label. */
  scope: Record<string, unknown>;
  severity: "info" | "warning" | "critical";
  status: "firing" | "resolved";
  value: number | null;
  threshold: number | null;
  summary: string;
  window_ms: number;
  samples: number;
  fired_at: string;
  resolved_at: string | null;
  /** Why no channel was asked; null when they were. */
  suppressed: "cooldown" | "flapping" | null;
  delivery: AlertEventDelivery[];
};

export type AlertEventDelivery = {
  channel_id: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  last_error: string | null;
  updated_at: string;
};

export type AlertEventList = {
  data: AlertEvent[];
  limit: number;
  offset: number;
};

export type AlertEventPage = {
  data: AlertEvent[];
  limit: number;
  offset: number;
};

export type AlertPreviewPoint = {
  at: string;
  value: number | null;
  samples: number;
  breach: boolean | null;
};

export type AlertRule = {
  id: string;
  name: string;
  enabled: boolean;
  source: string;
  scope: AlertScope;
  condition: AlertCondition;
  window_ms: number;
  cooldown_ms: number;
  min_samples: number;
  channels: "all" | string[];
  notify_resolved: boolean;
  severity: "info" | "warning" | "critical";
  /** config: the config file owns it; plugin: a plugin manages it (the host monitor: /api/monitor); store: the dashboard's. */
  origin: "config" | "store" | "plugin";
  created_at: string;
  updated_at: string;
  state: AlertRuleState;
};

export type AlertRuleCounts = {
  total: number;
  enabled: number;
};

export type AlertRuleDeleted = {
  deleted: string;
};

export type AlertRuleList = {
  data: AlertRule[];
};

export type AlertRulePreview = {
  would_fire: boolean;
  /** When it would have started firing. */
  firings: string[];
  points: AlertPreviewPoint[];
  note: string;
};

/** What the last evaluation saw. */
export type AlertRuleState = {
  status: "ok" | "firing";
  flapping: boolean;
  last_value: number | null;
  last_samples: number | null;
  last_note: string | null;
  last_error: string | null;
  evaluated_at: string | null;
};

/** Keys the rule's source takes, among project, template, version, model, route, label, target. */
export type AlertScope = {
  project?: string;
  template?: string;
  version?: number;
  model?: string;
  route?: string;
  label?: string;
  /** What a host rule watches: a unit, a port, a process, a path, a log watcher. */
  target?: string;
};

export type AlertSourceInfo = {
  id: string;
  summary: string;
  unit: string;
  scopes: string[];
  required_scopes: string[];
  budget: boolean;
  plugin: string;
};

export type AlertSourceList = {
  data: AlertSourceInfo[];
};

export type AlertingState = {
  state: "on" | "stopped" | "snoozed";
  /** When a snooze ends. */
  until: string | null;
  changed_at: string | null;
  rules: AlertRuleCounts;
  /** Events firing now. */
  firing: number;
};

export type ApiCollection = {
  id: string;
  name: string;
  requests: ApiRequest[];
};

export type ApiEnvVariable = {
  name: string;
  /** A secret variable's value is never sent back: it arrives as "" with `set`. Sending "" keeps the saved one. */
  value: string;
  /** Stored encrypted; used by the server only. */
  secret: boolean;
  /** Secret variables: whether a value is saved. Sending set: false with no value forgets it. */
  set?: boolean;
};

export type ApiEnvironment = {
  id: string;
  name: string;
  variables: ApiEnvVariable[];
};

export type ApiExportInput = {
  request: ApiRequest;
  format: "curl" | "http";
  /** Whose variables fill the placeholders; default the active environment, null none. */
  environment_id?: string | null;
};

export type ApiExportResult = {
  text: string;
  /** Secret variables the snippet leaves to be set: $NAME shell variables in curl, {{name}} in raw HTTP. */
  secrets: string[];
};

export type ApiExtraction = {
  variable: string;
  from: "json" | "header" | "status";
  /** json: $.data.token or items[0].id; header: its name. */
  path: string;
};

export type ApiFlow = {
  id: string;
  name: string;
  steps: ApiFlowStep[];
};

export type ApiFlowInput = {
  flow_id?: string;
  flow?: ApiFlow;
  /** Whose variables fill the placeholders; default the active environment, null none. */
  environment_id?: string | null;
  /** Values that win over the environment's (not saved). */
  variables?: Record<string, string>;
  /** Default apiclient.timeout; at most apiclient.max_timeout. */
  timeout_ms?: number;
};

export type ApiFlowResult = {
  steps: ApiFlowStepResult[];
  /** false: a step failed (no answer, a 4xx/5xx, or an extraction that found nothing) and the flow stopped there. */
  completed: boolean;
};

export type ApiFlowStep = {
  request: ApiRequest;
  extract: ApiExtraction[];
};

export type ApiFlowStepResult = {
  name: string;
  ok: boolean;
  error: string | null;
  /** Values taken into variables (secret-looking ones are shown: they came in this response). */
  extracted: Record<string, string>;
  /** Extractions that found nothing. */
  missing: string[];
  response: ApiSendResult | null;
};

export type ApiHistoryEntry = {
  id: string;
  /** epoch ms */
  at: number;
  method: string;
  /** As written, placeholders unfilled. */
  url: string;
  /** null: no answer (timeout, unreachable). */
  status: number | null;
  duration_ms: number | null;
  request: ApiRequest;
};

export type ApiImportInput = {
  /** The file's text: a Postman v2.1 collection, an Insomnia v4 export, an OpenAPI 3 document (JSON or YAML) or curl commands. */
  text: string;
  format?: "auto" | "postman" | "insomnia" | "openapi" | "curl";
};

export type ApiImportResult = {
  format: "postman" | "insomnia" | "openapi" | "curl";
  collection: ApiCollection;
  /** Variables the document declares (an OpenAPI server becomes baseUrl): offered as a new environment. */
  variables: ApiEnvVariable[];
};

export type ApiKeyValue = {
  name: string;
  value: string;
  /** false: kept in the editor, not sent. */
  enabled?: boolean;
};

export type ApiRequest = {
  id: string;
  name: string;
  /** Where the request sits in the tree, e.g. "Users / Admin"; "" at the top. */
  folder: string;
  method: string;
  /** May hold {{variables}}; the query string is part of it. */
  url: string;
  headers: ApiKeyValue[];
  body: string;
  auth: ApiRequestAuth;
};

export type ApiRequestAuth = {
  type: "none" | "bearer" | "basic";
  token?: string;
  username?: string;
  password?: string;
};

export type ApiSendInput = {
  request: ApiRequest;
  /** Whose variables fill the placeholders; default the active environment, null none. */
  environment_id?: string | null;
  /** Values that win over the environment's (not saved). */
  variables?: Record<string, string>;
  /** Default apiclient.timeout; at most apiclient.max_timeout. */
  timeout_ms?: number;
};

export type ApiSendLimits = {
  timeout_ms: number;
  max_timeout_ms: number;
  max_response_bytes: number;
  display_bytes: number;
};

export type ApiSendResult = {
  /** The URL sent, secret values and credential-like query values masked. */
  url: string;
  method: string;
  status: number;
  status_text: string;
  http_version: string;
  headers: string[][];
  content_type: string;
  /** The body as text, cut at apiclient.display_bytes. */
  body: string;
  /** A JSON body pretty-printed, when it was read whole. */
  pretty: string | null;
  binary: boolean;
  /** Bytes read. */
  size_bytes: number;
  /** Bytes of it in `body`. */
  shown_bytes: number;
  /** The body went on past apiclient.max_response_bytes: reading stopped there. */
  truncated: boolean;
  timings: ApiTimings;
};

export type ApiStore = {
  collections: ApiCollection[];
  environments: ApiEnvironment[];
  active_env: string | null;
  /** The last 50 sends, newest first. */
  history: ApiHistoryEntry[];
  flows: ApiFlow[];
  limits: ApiStoreLimits;
  send: ApiSendLimits;
};

export type ApiStoreChange = {
  collections?: ApiCollection[];
  environments?: ApiEnvironment[];
  active_env?: string | null;
  flows?: ApiFlow[];
  clear_history?: boolean;
};

export type ApiStoreLimits = {
  collections: number;
  requests: number;
  environments: number;
  variables: number;
  flows: number;
  steps: number;
  history: number;
  headers: number;
  body_chars: number;
  import_bytes: number;
};

/** Milliseconds since the send began; null where the phase did not happen (no DNS for an IP address, no TLS for http). */
export type ApiTimings = {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  first_byte_ms: number | null;
  total_ms: number;
};

export type AssistantChatInput = {
  /** The conversation so far, oldest first, ending with the user's question. */
  messages: AssistantMessage[];
  /** What the page offered and the user kept; at most assistant.max_context_bytes together. */
  context?: AssistantContextItem[];
};

export type AssistantContextItem = {
  /** What it is: health, logs, unit, page. */
  kind: string;
  title: string;
  content: string;
};

export type AssistantDeltaEvent = {
  event: "delta";
  data: AssistantStreamDelta;
};

export type AssistantDoneEvent = {
  event: "done";
  data: AssistantStreamDone;
};

export type AssistantHealthFinding = {
  severity: "critical" | "warning" | "info";
  title: string;
  detail: string;
};

export type AssistantHealthReportInput = {
  score?: number;
  verdict?: string;
  findings: AssistantHealthFinding[];
};

export type AssistantLimits = {
  first_token_timeout_ms: number;
  total_timeout_ms: number;
  max_answer_bytes: number;
  max_context_bytes: number;
};

export type AssistantMessage = {
  role: "user" | "assistant";
  content: string;
};

export type AssistantProposal = {
  action: string;
  /** The unit, log query or process; null for an action without one. */
  target: string | null;
  reason: string | null;
  /** What the card says, e.g. "Restart nginx.service". */
  label: string;
  /** The dashboard page it is done on. */
  page: string;
  /** The address that opens that page with the target filled in. */
  path: string;
  /** The JSON text of the block as the model wrote it, so the panel puts the card in its place. */
  source: string;
};

export type AssistantProposalEvent = {
  event: "proposal";
  data: AssistantProposal;
};

export type AssistantSettings = {
  /** false: no provider is set; the panel offers the form. */
  configured: boolean;
  /** openai: any OpenAI-compatible endpoint; anthropic; ollama: a local model server; cli: a local command. */
  provider: "openai" | "anthropic" | "ollama" | "cli" | null;
  model: string | null;
  base_url: string | null;
  /** cli: the argv (no shell). */
  command: string[] | null;
  /** Whether an API key is saved (encrypted); the key itself is never sent back. */
  key_set: boolean;
  limits: AssistantLimits;
  /** Kinds of values masked before anything is sent. */
  redact: Array<"card_number" | "iban" | "email" | "jwt" | "aws_access_key_id" | "private_key" | "bearer_token" | "api_key" | "us_ssn">;
  /** Whether the caller may change the settings (owners). */
  can_configure: boolean;
};

export type AssistantSettingsInput = {
  /** `none` forgets the settings (and the key). */
  provider: "openai" | "anthropic" | "ollama" | "cli" | "none";
  model?: string;
  /** http(s) base of the API; default per provider (api.openai.com/v1, api.anthropic.com, 127.0.0.1:11434). */
  base_url?: string;
  /** cli: the program and its arguments, run without a shell; the prompt goes to its stdin. */
  command?: string[];
  /** Stored encrypted, never sent back. Absent: keep the saved key; null: forget it. */
  api_key?: string | null;
};

export type AssistantStartEvent = {
  event: "start";
  data: AssistantStreamStart;
};

export type AssistantStreamDelta = {
  text: string;
};

export type AssistantStreamDone = {
  outcome: "done" | "cut" | "cancelled" | "failed";
  message: string | null;
  bytes: number;
};

export type AssistantStreamEvent = AssistantStartEvent | AssistantDeltaEvent | AssistantProposalEvent | AssistantDoneEvent;

export type AssistantStreamStart = {
  provider: string;
  model: string | null;
  /** Values replaced by [REDACTED] before sending. */
  masked: number;
};

export type AssistantTestResult = {
  ok: boolean;
  outcome: "done" | "cut" | "cancelled" | "failed";
  /** The first 200 characters of the answer. */
  answer: string;
  /** Why it failed or was cut, in plain words. */
  message: string | null;
  endpoint: string;
  duration_ms: number;
};

export type AuditEntry = {
  id: string;
  /** Epoch ms. */
  at: number;
  /** The user's id; null for the dashboard token and refused sign-ins. */
  actor_id: string | null;
  actor: string;
  /** `sign-in`, `sign-in refused`, `sign-out`, or the route: `PATCH /api/users/:id`. */
  action: string;
  /** The path the request named, or how a sign-in was made. */
  target: string;
  project: string | null;
  /** The HTTP status the request was answered with. */
  status: number;
  address: string | null;
  /** Why a sign-in was refused. */
  detail: string | null;
};

export type AuditPage = {
  entries: AuditEntry[];
  /** Pass as `before` for older entries; null on the last page. */
  next: string | null;
};

export type AuthorizedKeyLine = {
  line: number;
  kind: "key" | "comment" | "blank" | "invalid";
  options: string[];
  type: string | null;
  bits: number | null;
  fingerprint: string | null;
  comment: string;
  error: string | null;
};

export type AuthorizedKeys = {
  present: boolean;
  lines: AuthorizedKeyLine[];
  /** The file is larger than 1 MiB; its first MiB is shown. */
  truncated: boolean;
};

export type AutoUpdates = {
  tool: "unattended-upgrades" | "dnf-automatic" | null;
  enabled: boolean;
  source: string | null;
};

export type BackupRun = {
  at: string;
  ok: boolean;
  copied: number;
  removed?: number;
  bytes: number;
  duration_ms: number;
  error: string | null;
};

export type BackupSettings = {
  sources: string[];
  dest: string;
  schedule: "off" | "daily" | "weekly";
  /** Once a week, remove from the backup the copies of what was deleted from the folders (off: the backup only grows). */
  tidy?: boolean;
};

export type BackupState = {
  settings: BackupSettings;
  last: null | BackupRun;
  running: boolean;
  /** seconds since the last successful run */
  age_s: number | null;
  /** where the copies are (point a host backup rule at it) */
  folder: string | null;
};

/** What ingest counted in the month the calls arrived: what limits and the budget hold to. */
export type BillingCounted = {
  items: number;
  cost_usd: number;
  sampled_out: number;
};

export type BillingLimitUsage = {
  name: "items_per_month" | "monthly_usd";
  used: number;
  limit: number | null;
  /** used / limit; null without a limit. */
  ratio: number | null;
  /** none: no limit; near: at 80 % or more; over: at or past it. */
  state: "none" | "ok" | "near" | "over";
};

export type BillingMonth = {
  month: string;
  from: string;
  to: string;
  /** The share of a limit from which a project is `near` it. */
  near_ratio: number;
  data: ProjectBill[];
  limit: number;
  offset: number;
};

export type BillingPlanLimits = {
  items_per_month: number | null;
  monthly_usd: number | null;
  items_per_batch: number;
  body_bytes: number;
  retention_ms: number;
};

export type BusyRemote = {
  address: string;
  connections: number;
  processes: string[];
};

export type CaptureDeleted = {
  deleted: string;
};

export type CaptureInfo = {
  name: string;
  interface: string;
  filter: string;
  max_packets: number;
  max_seconds: number;
  snaplen: number;
  started_at: string;
  ended_at: string | null;
  status: "running" | "done";
  stop_reason: "packets" | "time" | "size" | "stopped" | "error" | null;
  packets: number | null;
  bytes: number;
  error: string | null;
  started_by: string;
};

export type CaptureLimits = {
  max_packets: number;
  max_seconds: number;
  max_bytes: number;
  keep: number;
};

export type CaptureList = {
  captures: CaptureInfo[];
  running: null | CaptureInfo;
  limits: CaptureLimits;
  interfaces: string[];
  /** Where tcpdump is; null when it is not installed. */
  tcpdump: string | null;
  elevation: NetworkElevation;
};

/** A page of a capture, one decoded summary per packet. */
export type CapturePackets = {
  name: string;
  linktype: number;
  snaplen: number;
  /** Packets in the file (as far as it was read). */
  total: number;
  offset: number;
  /** The last record was cut short: still being written, or damaged. */
  cut: boolean;
  /** The file is larger than network.captures.max_bytes; only that much was read. */
  file_truncated: boolean;
  packets: PacketSummary[];
};

export type ChannelCreate = {
  /** Lower case, digits, _ and -; at most 64. */
  id: string;
  type: "ntfy" | "slack" | "discord" | "webhook" | "email" | "desktop";
  /** Shown in the dashboard; default the id. */
  name?: string;
  /** A disabled channel is skipped by `all` and refuses deliveries. Default true. */
  enabled?: boolean;
  /** Receives a JSON POST per notification. */
  url?: string;
  /** An access token for a protected topic (Authorization: Bearer). */
  token?: string;
  /** Every message's priority; default by severity (info 3, warning 4, critical 5). */
  priority?: number;
  /** Tags added to the severity's. */
  tags?: string[];
  /** The name messages appear under; default the webhook's. */
  username?: string;
  /** Signs each request: X-Vigil-Signature: sha256=<hex HMAC of "<X-Vigil-Timestamp>.<body>">. */
  secret?: string;
  /** Extra request headers; their values are kept secret. */
  headers?: Record<string, string>;
  /** The SMTP server. */
  host?: string;
  /** Default 587 with starttls, 465 with tls, 25 with none. */
  port?: number;
  /** starttls (required, not opportunistic), tls (implicit, port 465) or none. Default starttls. */
  security?: "starttls" | "tls" | "none";
  /** SMTP user name; with password, AUTH is used. */
  user?: string;
  /** SMTP password (a secret): write ${SMTP_PASSWORD} in the file. */
  password?: string;
  /** The sender, e.g. "Vigil <alerts@example.com>". */
  from?: string;
  /** Recipients. */
  to?: string[];
  /** Check the server's certificate. Default true. */
  tls_verify?: boolean;
};

export type ChannelDeleted = {
  deleted: string;
  [key: string]: unknown;
};

export type ChannelList = {
  data: ChannelView[];
  [key: string]: unknown;
};

export type ChannelTestResult = {
  channel_id: string;
  /** The receiver accepted the test notification. */
  ok: boolean;
  /** What failed, in words (never a secret). */
  error: string | null;
  /** False when the receiver refused (a 4xx, a wrong password): retrying the same settings cannot help. */
  retryable: boolean;
  duration_ms: number;
  [key: string]: unknown;
};

export type ChannelTestResults = {
  data: ChannelTestResult[];
  [key: string]: unknown;
};

export type ChannelUpdate = {
  /** Optional; when given, the id in the path. */
  id?: string;
  type: "ntfy" | "slack" | "discord" | "webhook" | "email" | "desktop";
  /** Shown in the dashboard; default the id. */
  name?: string;
  /** A disabled channel is skipped by `all` and refuses deliveries. Default true. */
  enabled?: boolean;
  /** Receives a JSON POST per notification. */
  url?: string;
  /** An access token for a protected topic (Authorization: Bearer). */
  token?: string;
  /** Every message's priority; default by severity (info 3, warning 4, critical 5). */
  priority?: number;
  /** Tags added to the severity's. */
  tags?: string[];
  /** The name messages appear under; default the webhook's. */
  username?: string;
  /** Signs each request: X-Vigil-Signature: sha256=<hex HMAC of "<X-Vigil-Timestamp>.<body>">. */
  secret?: string;
  /** Extra request headers; their values are kept secret. */
  headers?: Record<string, string>;
  /** The SMTP server. */
  host?: string;
  /** Default 587 with starttls, 465 with tls, 25 with none. */
  port?: number;
  /** starttls (required, not opportunistic), tls (implicit, port 465) or none. Default starttls. */
  security?: "starttls" | "tls" | "none";
  /** SMTP user name; with password, AUTH is used. */
  user?: string;
  /** SMTP password (a secret): write ${SMTP_PASSWORD} in the file. */
  password?: string;
  /** The sender, e.g. "Vigil <alerts@example.com>". */
  from?: string;
  /** Recipients. */
  to?: string[];
  /** Check the server's certificate. Default true. */
  tls_verify?: boolean;
};

export type ChannelView = {
  id: string;
  name: string;
  type: "ntfy" | "slack" | "discord" | "webhook" | "email" | "desktop";
  enabled: boolean;
  /** config: declared in the config file, read-only here (409 on change). */
  source: "config" | "store";
  settings: ChannelViewSettings;
  /** The secret settings that are set (url, token, secret, password, headers); leave them out of a PUT to keep them. */
  secrets: string[];
  /** Epoch ms; null for the config file's channels. */
  created_at: number | null;
  updated_at: number | null;
  [key: string]: unknown;
};

/** The settings, each secret masked (a URL shows its scheme and host only). */
export type ChannelViewSettings = Record<string, unknown>;

export type CleanRequest = {
  target: "user-cache" | "trash" | "apt" | "journal";
};

export type CleanResult = {
  id: "user-cache" | "trash" | "apt" | "journal";
  before: number | null;
  after: number | null;
};

export type CleanupTarget = {
  id: "user-cache" | "trash" | "apt" | "journal";
  title: string;
  path: string | null;
  bytes: number | null;
  complete: boolean;
  note: string;
  can_clean: boolean;
};

export type CleanupTargets = {
  targets: CleanupTarget[];
};

export type ConfigLocation = {
  file: string;
  line: number;
  column: number;
};

export type ConnectionStateCount = {
  state: string;
  count: number;
};

export type ContainerActionInput = {
  env: "docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes";
  id: string;
  action: "start" | "stop" | "restart" | "remove";
  /** remove only: a running container is killed first. Without it a running container is refused (409). */
  force?: boolean;
};

export type ContainerActionResult = {
  env: "docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes";
  id: string;
  action: "start" | "stop" | "restart" | "remove";
  /** The container as the engine lists it after the action; null once removed. */
  container: ContainerRow | null;
};

export type ContainerEnvironment = {
  kind: "docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes";
  /** The socket, the kubeconfig context and server, or the command it was reached through. */
  endpoint: string;
  /** unreachable: no answer within containers.timeout, or the socket refused; error: the engine answered with an error. */
  state: "ok" | "unreachable" | "error";
  /** Why it is unreachable or failed, e.g. "no answer in 3 s". */
  message: string | null;
  elapsed_ms: number;
  containers: number;
  pods: number;
  /** More rows than the bound: the newest are listed. */
  cut: boolean;
  /** What a terminal tab types before a container's id and `sh` for a shell inside it (the engine's CLI exec); null: no shell (pods). */
  shell: string | null;
  /** Whether its logs can be followed live. */
  follow: boolean;
};

export type ContainerLogs = {
  env: "docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes";
  id: string;
  /** The output, stdout and stderr interleaved as the engine keeps them. */
  text: string;
  /** Lines asked for from the end. */
  tail: number;
  /** The output passed containers.logs.max_bytes and was cut there. */
  cut: boolean;
  max_bytes: number;
};

export type ContainerPlaces = {
  kind: "docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes";
  places: string[];
};

export type ContainerRow = {
  env: "docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes";
  id: string;
  name: string;
  image: string;
  /** The engine's state, lower case: running, exited, created, paused, stopped… */
  state: string;
  /** The engine's own line, e.g. "Up 3 hours". */
  status: string;
  /** Epoch seconds; null when the engine does not say. */
  created: number | null;
  /** Published ports, 0.0.0.0:8080->80/tcp. */
  ports: string[];
  running: boolean;
};

export type ContainersList = {
  /** Every environment found, each with its own outcome. */
  environments: ContainerEnvironment[];
  containers: ContainerRow[];
  pods: PodRow[];
  /** Where each environment is looked for, so an empty page can say what it looked for. */
  looked_for: ContainerPlaces[];
  /** Each environment's time to answer (containers.timeout). */
  timeout_ms: number;
};

export type CreatedLlmProject = {
  project: LlmProject;
  /** The project key, shown this once. */
  key: string;
};

export type CreatedPrompt = {
  /** False when the text was a version already (detected or created): that version is answered. */
  created: boolean;
  prompt: KeptPrompt;
};

export type CreatedUser = {
  user: DashboardUserRecord;
  /** A local user's first password, shown this once (null for OIDC users). */
  password: string | null;
};

export type CronEditInput = {
  revision: string;
  op: "add" | "edit" | "disable" | "enable" | "delete";
  line?: number;
  schedule?: string;
  command?: string;
};

export type CronLine = {
  /** 0-based line number: the id an edit names. */
  line: number;
  kind: "entry" | "comment" | "blank" | "variable" | "invalid";
  /** The line as stored. */
  raw: string;
  enabled?: boolean;
  schedule?: string;
  command?: string;
  /** The schedule in words. */
  human?: string;
  name?: string;
  value?: string;
  error?: string;
};

export type CronScheduleReading = {
  valid: boolean;
  schedule: string;
  human: string | null;
  error: string | null;
};

export type Crontab = {
  /** Whether the crontab program is installed. */
  available: boolean;
  note: string | null;
  /** Whose crontab this is. */
  user: string;
  /** A digest of the text read; an edit sends it back and is refused (409) when the crontab changed since. */
  revision: string;
  lines: CronLine[];
};

export type CurrentUser = {
  id: string | null;
  email: string | null;
  /** The role on the instance and in every project; null: none. */
  instance_role: "viewer" | "member" | "admin" | "owner" | null;
  projects: Record<string, "viewer" | "member" | "admin">;
};

export type DashboardSession = {
  /** What the session is ended by (DELETE /api/sessions/{id}). Not the cookie, and not usable as one. */
  id: string;
  /** Whether this is the session of the request that asked. */
  current: boolean;
  /** The user signed in (GET /api/users); null for a login with the dashboard token. */
  user_id: string | null;
  /** Epoch ms of the login. */
  created_at: number;
  /** Epoch ms of the last request, to within a minute. */
  last_seen_at: number;
  /** Epoch ms of the absolute end (control_plane.session.lifetime after the login). */
  expires_at: number;
  /** Epoch ms at which it ends unless used (control_plane.session.idle_timeout after last_seen_at). */
  idle_expires_at: number;
  /** The browser's User-Agent at login (first 256 characters). */
  user_agent: string | null;
  /** The client address the login came from. */
  client_address: string | null;
};

export type DashboardSessionList = {
  sessions: DashboardSession[];
  total: number;
};

export type DashboardUserList = {
  users: DashboardUserRecord[];
  total: number;
};

export type DashboardUserRecord = {
  id: string;
  email: string;
  name: string | null;
  /** oidc: signs in with single sign-on; local: with a password. */
  source: "oidc" | "local";
  /** The role on the instance and in every project; null: none. */
  instance_role: "viewer" | "member" | "admin" | "owner" | null;
  /** Role per LLM project. */
  projects: Record<string, "viewer" | "member" | "admin">;
  disabled: boolean;
  /** Epoch ms. */
  created_at: number;
  /** Epoch ms of the last sign-in, or null. */
  last_login_at: number | null;
};

export type DbColumn = {
  name: string;
  type: string;
  nullable: boolean;
  primary_key: boolean;
  default: string | null;
};

export type DbColumnList = {
  columns: DbColumn[];
};

export type DbConnection = {
  id: string;
  name: string;
  kind: "sqlite" | "postgres" | "mysql";
  /** SQLite: the file, symlinks resolved. */
  path: string | null;
  host: string | null;
  port: number | null;
  database: string | null;
  user: string | null;
  ssl: boolean;
  /** Whether a password is saved (encrypted); the password itself is never sent back. */
  has_password: boolean;
  /** Writes on: statements run in read-write transactions (SQLite opened read-write), each one in the audit log. Off: the database refuses writes. */
  writable: boolean;
};

export type DbConnectionChange = {
  name?: string;
  writable?: boolean;
  /** A new password; null forgets the saved one. */
  password?: string | null;
};

export type DbConnectionDeleted = {
  deleted: string;
};

export type DbConnectionInput = {
  name: string;
  kind: "sqlite" | "postgres" | "mysql";
  /** sqlite: an absolute path under one of dbbrowser.roots. */
  path?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  /** Stored encrypted; never sent back. */
  password?: string;
  ssl?: boolean;
  /** Default false: the database refuses writes. */
  writable?: boolean;
};

export type DbConnectionList = {
  connections: DbConnection[];
  /** Folders SQLite files may be opened from. */
  roots: string[];
  limits: DbLimits;
};

export type DbLimits = {
  row_cap: number;
  max_row_cap: number;
  statement_timeout_ms: number;
  max_statement_timeout_ms: number;
  page_rows: number;
};

export type DbQueryByName = {
  /** One statement; a trailing semicolon is fine. */
  sql: string;
  /** The row cap (default dbbrowser.row_cap, at most dbbrowser.max_row_cap). */
  max_rows?: number;
  /** The statement timeout (default dbbrowser.statement_timeout, at most dbbrowser.max_statement_timeout). */
  timeout_ms?: number;
  /** A saved connection's id. */
  connection: string;
};

export type DbQueryInput = {
  /** One statement; a trailing semicolon is fine. */
  sql: string;
  /** The row cap (default dbbrowser.row_cap, at most dbbrowser.max_row_cap). */
  max_rows?: number;
  /** The statement timeout (default dbbrowser.statement_timeout, at most dbbrowser.max_statement_timeout). */
  timeout_ms?: number;
};

export type DbQueryResult = {
  columns: DbResultColumn[];
  rows: Array<Array<string | number | null>>;
  /** Set when the result was cut: the rows returned ("cut at N rows"). */
  cut_at: number | null;
  /** row_cap: the row cap; bytes: the result passed about 8 MB. */
  cut_by: "row_cap" | "bytes" | null;
  command: string | null;
  /** Rows a write changed. */
  affected: number | null;
  duration_ms: number;
  /** The statement ran where the database refuses writes. */
  read_only: boolean;
  row_cap: number;
  timeout_ms: number;
};

export type DbResultColumn = {
  name: string;
  type: string | null;
};

export type DbRowsPage = {
  columns: DbResultColumn[];
  rows: Array<Array<string | number | null>>;
  /** The cursor of the next page; null on the last. */
  next: string | null;
  /** keyset: by primary key (or SQLite rowid), every page as fast as the first; offset: LIMIT/OFFSET. */
  paging: "keyset" | "offset";
};

export type DbTable = {
  schema: string;
  name: string;
  kind: "table" | "view";
  /** null: not counted (a view, or the 2 s counting budget ran out). */
  row_count: number | null;
  /** false: the server's estimate (PostgreSQL's pg_class.reltuples, MariaDB/MySQL's information_schema.TABLES.TABLE_ROWS), given for tables above 100,000 rows. */
  row_count_exact: boolean;
};

export type DbTableList = {
  schemas: string[];
  tables: DbTable[];
  /** More than 2000 tables: the list holds the first by schema and name. */
  truncated: boolean;
};

export type DefinitionScore = {
  eval_definition_id: string;
  name: string;
  type: string;
  method: string;
  avg_score: number | null;
  samples: number;
  failed: number;
  skipped: number;
  /** Ok results of other methods, not averaged with these. */
  other_methods: Array<{
    method: string;
    avg_score: number;
    samples: number;
  }>;
};

export type DigestDelivery = {
  channel_id: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  last_error: string | null;
};

export type DigestInfo = {
  id: string;
  summary: string;
  plugin: string;
};

export type DigestList = {
  data: DigestInfo[];
};

export type DigestMessage = {
  title: string;
  text: string;
  html: string;
};

export type DigestPreview = {
  from: string;
  /** Exclusive. */
  to: string;
  /** The digest's figures, as its plugin gives them. */
  data: Record<string, unknown>;
  message: DigestMessage;
};

export type DigestSent = {
  event_id: string;
  deliveries: DigestDelivery[];
};

export type DiskHealth = {
  drives: Drive[];
  /** smartctl is on PATH */
  smartctl: boolean;
  /** the privileged helper (plugin privilege) is on: SMART checks run through it */
  helper: boolean;
};

export type DisplaySettings = {
  /** system follows the browser's prefers-color-scheme. */
  theme: "system" | "light" | "dark";
  /** Hide the pages meant for developers. */
  simple_mode: boolean;
  /** No animations or translucency (also on when the browser prefers reduced motion). */
  reduce_effects: boolean;
};

export type DockerDisk = {
  available: boolean;
  reason?: string;
  rows?: DockerDiskRow[];
};

export type DockerDiskRow = {
  type: string;
  total: number;
  active: number;
  size: string;
  reclaimable: string;
};

export type Drive = {
  name: string;
  device: string;
  model: string | null;
  vendor: string | null;
  size_bytes: number;
  type: "ssd" | "spinning";
  virtual: boolean;
  removable: boolean;
  transport: string | null;
};

export type DuplicateGroup = {
  /** bytes */
  bytes: number;
  /** bytes */
  wasted: number;
  proof: "full-hash" | "fingerprint";
  paths: string[];
};

export type DuplicateScan = {
  phase: "walking" | "fingerprint" | "hashing" | "done";
  candidates: number;
  fingerprinted: number;
  /** bytes */
  hash_bytes_total: number;
  /** bytes */
  hash_bytes_done: number;
  groups: DuplicateGroup[];
  groups_total: number;
  /** bytes */
  wasted: number;
  /** files not proved or disproved when the scan stopped early */
  unconfirmed: number;
};

/** The settings in force: its own over the plugin's defaults. */
export type EffectiveProjectSettings = {
  /** The plan of llm.plans in force; null: none. */
  plan: string | null;
  /** USD; null: no cap. */
  monthlyBudgetUsd: number | null;
  overBudgetSampleRate: number;
  /** Null: no limit. */
  itemsPerMonth: number | null;
  itemsPerBatch: number;
  bodyBytes: number;
  itemKeys: number;
  itemBytes: number;
  redact: {
    json_fields: string[];
    detect: Array<"card_number" | "iban" | "email" | "jwt" | "aws_access_key_id" | "private_key" | "bearer_token" | "api_key" | "us_ssn">;
  };
  retentionMs: number;
};

export type EndedSessions = {
  /** Sessions ended by this call. */
  ended: number;
};

export type ErrorAnswer = {
  error: {
    /** Stable code, e.g. VIGIL_ERR_HTTP_UNAUTHORIZED (docs/errors.md). */
    code: string;
    /** What went wrong and what to do; generic for 5xx, whose details are in the server log. */
    message: string;
    /** Key path of the invalid value, for validation errors (body.rules[2].name). */
    path?: string;
  };
};

/** The eval's own cost (judge or embedding tokens), never part of the application's cost. */
export type EvalCost = {
  tokens_in: number;
  tokens_out: number;
  usd: number | null;
};

export type EvalDefinition = {
  id: string;
  name: string;
  type: "llm_judge" | "semantic_similarity" | "custom_function";
  sample_rate: number;
  template: string | null;
  versions: null | {
    min?: number;
    max?: number;
  };
  /** A trace without output: skip (a skipped result) or score it. */
  on_missing_output: "skip" | "score";
  settings: EvalSettings;
  /** config when declared in evaluators.definitions (the file wins). */
  source: "config" | "store";
  rate_per_minute: number;
  created_at: string | null;
  updated_at: string | null;
  stats: EvalDefinitionStats;
};

export type EvalDefinitionList = {
  data: EvalDefinition[];
};

export type EvalDefinitionStats = {
  results: number;
  failed: number;
  /** Traces without output, not scored (on_missing_output: skip). */
  skipped: number;
  avg_score: number | null;
  method: string | null;
  cost_usd: number;
  last_result_at: string | null;
};

export type EvalRerun = {
  eval_definition_id: string;
  template: string | null;
  traces: number;
  enqueued: number;
  rate_per_minute: number;
};

export type EvalResult = {
  id: string;
  eval_definition_id: string;
  trace_id: string;
  /** 0..1; null when the eval failed or was skipped. */
  score: number | null;
  status: "ok" | "failed" | "skipped";
  reason: string | null;
  method: string;
  model: string | null;
  cost: EvalCost;
  latency_ms: number;
  created_at: string;
  /** Type-specific facts: the failure's kind, the closest golden output, the function's logs. */
  details: Record<string, unknown> | null;
};

export type EvalResultPage = {
  data: EvalResult[];
  limit: number;
  offset: number;
};

/** Type-specific settings: every key any type takes (definition-check.ts says which belong to which type). */
export type EvalSettings = {
  /** llm_judge: a provider named in evaluators.providers. */
  provider?: string;
  /** llm_judge: the judge model, over the provider's. */
  model?: string;
  /** llm_judge: the rubric; {{input}}, {{output}}, {{expected}}, {{metadata.path}}. */
  rubric?: string;
  /** llm_judge: default 0. */
  temperature?: number;
  /** semantic_similarity: expected outputs. Absent: the golden set of the trace's template. */
  golden?: string[];
  /** custom_function: `export default (trace) => number | { score, reason }`. */
  source?: string;
};

export type EvalTrial = {
  /** Null when the trial ran on the built-in sample trace. */
  trace_id: string | null;
  sample_trace: boolean;
  status: "ok" | "failed" | "skipped";
  score: number | null;
  reason: string | null;
  method: string;
  model: string | null;
  cost: EvalCost;
  /** The eval's own time, without any one-time preparation. */
  latency_ms: number;
  /** Waiting for the embedder's one-time preparation before the eval ran (0 once it is ready). */
  preparation_ms?: number;
  /** Type-specific facts: the failure's kind, the closest golden output, the function's logs. */
  details: Record<string, unknown> | null;
};

export type FailedLoginSource = {
  kind: "ssh" | "sudo";
  /** The remote address (ssh) or the local account (sudo). */
  source: string;
  attempts: number;
  users: string[];
  last_seen: string | null;
};

export type FailedLogins = {
  /** The log read: /var/log/auth.log, /var/log/secure, or journal. */
  from: string;
  lines: number;
  /** Most attempts first, over the last 7 days. */
  sources: FailedLoginSource[];
  /** Sources beyond the list. */
  more: number;
};

export type FilesSettings = {
  home: string;
  roots: string[];
  scan_roots: string[];
  budget_ms: number;
  max_budget_ms: number;
  edit_limit: number;
  trash_dir: string;
  max_scans: number;
};

export type FirewallRules = {
  tool: "ufw" | "firewalld" | "nftables";
  command: string;
  output: string;
  exit_code: number | null;
  /** The dump passed 1 MiB and was cut. */
  truncated: boolean;
};

/** The firewall read without privileges: each tool installed, its enabled switch and its service. */
export type FirewallStatus = {
  tools: FirewallToolState[];
  verdict: "on" | "off" | "none";
  tool: "ufw" | "firewalld" | "nftables" | null;
  message: string;
  elevation: NetworkElevation;
};

export type FirewallSummary = {
  tool: string;
  active: boolean;
};

export type FirewallToolState = {
  tool: "ufw" | "firewalld" | "nftables";
  installed: boolean;
  path: string | null;
  enabled: boolean | null;
  service: string | null;
  summary: string;
};

export type FleetConfig = {
  hosts: FleetPeer[];
};

export type FleetConfigInput = {
  hosts: FleetHost[];
};

export type FleetGrid = {
  interval_ms: number;
  timeout_ms: number;
  /** This machine first, then the config file's, then the dashboard's. */
  machines: FleetMachine[];
};

export type FleetHost = {
  /** Shown in the grid: letters, digits, ".", "_" and "-"; at most 64. */
  name: string;
  /** The base URL of the other Vigil's control plane, e.g. http://10.0.0.5:9095 (its /api/fleet/peer is read). */
  url: string;
  /** A read token created on that instance (Host → Fleet → Read tokens). A secret: write ${ENV_VAR} in the file. */
  token?: string;
};

export type FleetMachine = {
  name: string;
  /** null for this machine. */
  url: string | null;
  source: "self" | "config" | "store";
  /** pending: not polled yet. */
  status: "up" | "down" | "pending";
  /** Why the last poll failed, in words. */
  error: string | null;
  latency_ms: number | null;
  polled_at: string | null;
  /** The last good answer; a down machine keeps the overview it gave then. */
  last_seen_at: string | null;
  overview: null | HostOverview;
};

export type FleetPeer = {
  name: string;
  url: string;
  /** config: declared in fleet.peers, read-only here (409 on change). */
  source: "config" | "store";
  /** The token's last four characters, masked (••••abcd): the token itself is never sent back. */
  token_hint: string;
};

export type FleetPeerDeleted = {
  deleted: string;
};

export type FleetPeerInput = {
  /** Shown in the grid: letters, digits, ".", "_" and "-"; at most 64. */
  name: string;
  /** The base URL of the other Vigil's control plane, e.g. http://10.0.0.5:9095 (its /api/fleet/peer is read). */
  url: string;
  /** A read token created on that instance (Host → Fleet → Read tokens). A secret: write ${ENV_VAR} in the file. */
  token: string;
};

export type FleetReadToken = {
  id: string;
  label: string;
  /** The token's last four characters, masked. */
  hint: string;
  /** Epoch ms. */
  created_at: number;
  /** Epoch ms of the last read with it, to the minute. */
  last_used_at: number | null;
};

export type FleetReadTokenCreated = {
  id: string;
  label: string;
  /** The token's last four characters, masked. */
  hint: string;
  /** Epoch ms. */
  created_at: number;
  /** Epoch ms of the last read with it, to the minute. */
  last_used_at: number | null;
  /** Shown this once. */
  token: string;
};

export type FleetReadTokenInput = {
  /** Which instance will use it, say. */
  label: string;
};

export type FleetReadTokenList = {
  data: FleetReadToken[];
};

export type FleetReadTokenRevoked = {
  revoked: string;
};

export type FolderChild = {
  name: string;
  /** absolute path */
  path: string;
  /** bytes */
  bytes: number;
  files: number | null;
  dir: boolean;
};

/** what is not listed one by one */
export type FolderOther = {
  count: number;
  /** bytes */
  bytes: number;
};

/** One folder of a sizes scan: its children largest first (at most 500). */
export type FolderSizes = {
  /** absolute path */
  path: string;
  /** bytes */
  bytes: number;
  files: number | null;
  /** false while the scan runs: the figures grow as they are counted */
  complete: boolean;
  children: FolderChild[];
  other: FolderOther;
};

export type GateCheck = {
  metric: "min_score" | "max_score_drop" | "max_p95_increase_pct" | "max_error_rate" | "max_error_rate_increase" | "max_cost_increase_pct";
  baseline: number | null;
  candidate: number | null;
  threshold: number;
  value: number | null;
  pass: boolean | null;
};

export type GateSide = {
  version: number;
  samples: number;
  stats: {
    requests: number;
    errors: number;
    error_rate: number;
    avg_score: number | null;
    p95_latency_ms: number | null;
    avg_cost_usd: number | null;
    cost_usd: number;
  };
};

export type GateVerdict = {
  /** Null with too few samples, or when a check cannot be computed yet. */
  pass: boolean | null;
  reason: string;
  template: string;
  baseline: null | GateSide;
  candidate: GateSide;
  min_samples: number;
  checks: GateCheck[];
};

export type GatewayOverview = {
  range: string;
  /** Epoch ms. */
  from: number;
  /** Epoch ms. */
  to: number;
  step_ms: number;
  requests: number;
  errors: number;
  error_rate: number;
  /** Estimated from latency buckets; null without requests. */
  p95_ms: number | null;
  p99_ms: number | null;
  tokens: number;
  volume: TrafficPoint[];
  top_routes: RouteTraffic[];
};

export type GnomeSetting = {
  id: "color-scheme" | "text-scaling-factor" | "clock-show-seconds" | "clock-show-weekday" | "show-battery-percentage" | "enable-animations" | "button-layout" | "center-new-windows" | "night-light-enabled";
  schema: string;
  key: string;
  label: string;
  hint: string;
  /** The schema is installed here. */
  available: boolean;
  writable: boolean;
  kind: "boolean" | "string" | "enum" | "number" | "other" | "missing";
  choices: string[];
  min: number | null;
  max: number | null;
  integer: boolean;
  value: null | boolean | number | string;
};

export type GnomeSettings = {
  /** gsettings and the GNOME desktop schemas are installed. */
  available: boolean;
  /** Why not, in a sentence. */
  reason: string | null;
  /** GSETTINGS_BACKEND when Vigil's environment sets one (keyfile, memory); null: dconf. */
  backend: string | null;
  settings: GnomeSetting[];
};

export type GoldenSet = {
  template: string;
  outputs: string[];
  updated_at: string;
};

export type GoldenSetPage = {
  data: GoldenSet[];
  limit: number;
  offset: number;
};

export type GovernedRecord = {
  /** UUIDv7. */
  id: string;
  /** Epoch ms of the request's start. */
  time: number;
  method: string;
  /** As received, without the query. */
  path: string;
  /** The matched rules' globs. */
  route: string[];
  query: Record<string, string | string[]>;
  /** 0 when the upstream gave no response. */
  status: number;
  duration_ms: number;
  /** Canonical capitalisation; null when headers are restricted. */
  headers: null | Record<string, string | string[]>;
  response_headers: null | Record<string, string | string[]>;
  /** JSON value, string for text, null when not kept (see dropped_reason). */
  request_body: unknown;
  /** JSON value, string for text, null when not kept (see dropped_reason). */
  response_body: unknown;
  labels: Record<string, string>;
  matched_rules: string[];
  tokens: number | null;
  sampled: boolean;
  truncated: boolean;
  partial: boolean;
  dropped_reason: string | null;
  /** Null when the upstream's answer went through whole; else an error code or client_aborted. */
  error: string | null;
  /** Only on records a middleware sent: what the agent's policy masked. */
  agent_masked?: string[];
};

export type GovernedRecordPage = {
  data: GovernedRecord[];
  limit: number;
  offset: number;
  /** Cursor of the older records (`before`); null on the last page. */
  next: string | null;
  /** Cursor of the newer records (`after`); null on the first page. */
  prev: string | null;
  /** The page holds fewer records than `limit` because of their size; `next` goes on. */
  truncated: boolean;
};

export type Health = {
  status: "ok" | "starting" | "stopping";
  /** The version of Vigil that runs. */
  version: string;
  /** The enabled plugins, in start order. */
  plugins: string[];
};

export type HealthFinding = {
  /** Costs 20, 10 or 3 points. */
  severity: "critical" | "warning" | "info";
  title: string;
  /** What it means and what to do, in plain words. */
  detail: string;
  /** The kind of fix: clean, updates, services, memory, temperature, battery, reboot, security. */
  action: string;
  /** The dashboard page where it can be fixed or looked into. */
  path: string;
};

/** perch's health score: 100 less 20 per critical finding, 10 per warning and 3 per note. */
export type HealthScore = {
  score: number;
  verdict: "Excellent" | "Good" | "Needs attention" | "Poor";
  /** Worst first. */
  findings: HealthFinding[];
  /** What could not be looked at here (no apt, no systemd), so the score says nothing of it. */
  unchecked: string[];
  taken_at: string;
};

/** The home grid: widget order, removed widgets and sizes (at most 120 of each). */
export type HomeLayout = {
  /** Widget ids in grid order. */
  order: string[];
  /** Widgets removed from the grid; the gallery offers them again. */
  hidden: string[];
  /** Size by widget id; a widget without one has its default size. */
  sizes: Record<string, WidgetSize>;
};

export type HostAlertingState = {
  state: "on" | "stopped" | "snoozed";
  until: string | null;
};

export type HostBattery = {
  percent: number;
  charging: boolean;
  plugged: boolean;
};

export type HostBuiltinInput = {
  on?: boolean;
  th?: number;
  /** Between two notices of the rule; default 600,000 (perch's 600 s). */
  cooldown_ms?: number;
};

export type HostBuiltinRule = {
  on: boolean;
  th: number;
  label: string;
  unit: string;
  cooldown_ms: number;
  rule_id: string;
  /** At its last evaluation. */
  status: "ok" | "firing";
  last_value: number | null;
  last_error: string | null;
};

export type HostBuiltinRules = {
  cpu: HostBuiltinRule;
  mem: HostBuiltinRule;
  temp: HostBuiltinRule;
  disk: HostBuiltinRule;
  battery: HostBuiltinRule;
};

/** What this machine has, so the UI hides what does not apply. Detected from files and PATH, cached 5 minutes. */
export type HostCaps = {
  /** linux, or another system whose /proc the probes cannot read. */
  os: "linux" | "other";
  /** The native package manager, found on PATH. */
  package_manager: "apt" | "dnf" | "pacman" | "zypper" | null;
  snap: boolean;
  flatpak: boolean;
  /** A GNOME session, or gnome-shell installed. */
  gnome: boolean;
  /** The session Vigil runs in is a Wayland one. */
  wayland: boolean;
  battery: boolean;
  /** systemd is the init system (/run/systemd/system). */
  systemd: boolean;
  /** journalctl is on PATH and systemd runs. */
  journal: boolean;
  /** A GPU is visible in DRM sysfs, or nvidia-smi is on PATH. */
  gpu: boolean;
  nvidia_smi: boolean;
  /** Container environments: those the containers plugin finds (sockets, kubeconfig, nerdctl) when it is on, else the engines whose command is on PATH. */
  containers: Array<"docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes">;
};

export type HostCpu = {
  percent: number | null;
  cores: number;
  load: number[];
};

export type HostCpuShare = {
  busy: number;
  user: number;
  system: number;
  iowait: number;
  steal: number;
} | null;

export type HostCustomRule = {
  id: string;
  name: string;
  kind: "unit" | "port" | "process" | "folder" | "backup";
  target: string;
  /** folder: GB; backup: days; null for the others. */
  value: number | null;
  enabled: boolean;
  /** unit: a user unit. */
  user: boolean;
  cooldown_ms: number;
  /** At its last evaluation. */
  status: "ok" | "firing";
  last_value: number | null;
  /** Why the check could not look (no systemd, a missing path). */
  last_error: string | null;
};

export type HostCustomRuleInput = {
  name: string;
  /** `path` is perch's name for `folder`. */
  kind: "unit" | "port" | "process" | "folder" | "backup" | "path";
  /** unit: its name; port: the number; process: a name; folder and backup: an absolute path. */
  target: string;
  /** folder: GB past which it fires; backup: days (default 7); null or absent for the others. */
  value?: number | null;
  enabled?: boolean;
  /** unit: a user unit (systemctl --user). */
  user?: boolean;
  cooldown_ms?: number;
  /** Ignored: ids come from what a rule watches. Accepted so a listed rule can be sent back as it is. */
  id?: string;
};

export type HostCustomRules = {
  rules: HostCustomRule[];
};

export type HostCustomRulesInput = {
  rules: HostCustomRuleInput[];
};

export type HostCustomTest = {
  /** False when the check could not look (the reason is in `detail`). */
  ok: boolean;
  value: number | null;
  /** What the check sees now, in words. */
  detail: string;
  /** Whether the rule would fire now; null when the check could not look. */
  would_fire: boolean | null;
  elapsed_ms: number;
};

export type HostCustomTestInput = {
  rule: HostCustomRuleInput;
};

export type HostDiskIo = {
  name: string;
  whole_disk: boolean;
  read_bps: number | null;
  write_bps: number | null;
  busy_percent: number | null;
  read_bytes: number;
  written_bytes: number;
};

export type HostGpu = {
  /** card0 (DRM) or nvidia0 (nvidia-smi). */
  id: string;
  vendor: "amd" | "intel" | "nvidia" | "other";
  source: "drm" | "nvidia-smi";
  name: string | null;
  busy_percent: number | null;
  vram_used_bytes: number | null;
  vram_total_bytes: number | null;
  freq_mhz: number | null;
  max_freq_mhz: number | null;
  celsius: number | null;
  power_w: number | null;
};

export type HostHourRow = {
  /** The hour's start, epoch ms. */
  hour: number;
  /** Minute samples the hour was made of. */
  n: number;
  cpu_avg: number | null;
  cpu_max: number | null;
  mem_avg: number | null;
  mem_max: number | null;
  swap_avg: number | null;
  swap_max: number | null;
  load1_avg: number | null;
  load1_max: number | null;
  temp_avg: number | null;
  temp_max: number | null;
  disk_avg: number | null;
  disk_max: number | null;
  battery_avg: number | null;
  battery_max: number | null;
  net_rx_avg: number | null;
  net_rx_max: number | null;
  net_tx_avg: number | null;
  net_tx_max: number | null;
  io_read_avg: number | null;
  io_read_max: number | null;
  io_write_avg: number | null;
  io_write_max: number | null;
};

export type HostInterface = {
  name: string;
  rx_bps: number | null;
  tx_bps: number | null;
  rx_bytes: number;
  tx_bytes: number;
  rx_errors: number;
  tx_errors: number;
  rx_dropped: number;
  tx_dropped: number;
};

export type HostLatestSample = {
  t: string;
  cpu: number | null;
  mem: number | null;
  swap: number | null;
  temp: number | null;
  disk: number | null;
  battery: number | null;
};

/** This machine now, in full: what the Host page shows and the live stream (topic host.live) sends. */
export type HostLive = {
  taken_at: string;
  /** Time since the reading the rates are measured against; null when there was none. */
  interval_ms: number | null;
  uptime_s: number;
  cpu: HostLiveCpu;
  memory: HostLiveMemory;
  /** Real partitions (not tmpfs, squashfs, overlay), each device once; usage null when statfs failed or took over 2 s. */
  disks: HostMount[];
  disk_io: HostDiskIo[];
  /** Every interface but loopback, with rates since the previous reading and the counters since boot. */
  network: HostInterface[];
  temperatures: HostSensor[];
  batteries: HostLiveBattery[];
  gpus: HostGpu[];
};

export type HostLiveBattery = {
  name: string;
  percent: number;
  status: string;
  charging: boolean;
  plugged: boolean;
  /** Full capacity against design capacity (wear), over 100 for some new batteries; null when the firmware does not say. */
  health_percent: number | null;
};

export type HostLiveCpu = {
  total: HostCpuShare;
  /** Busy share of each core, in the kernel's order; empty without a previous reading. */
  cores: number[];
  load: number[];
  running: number;
  tasks: number;
};

export type HostLiveMemory = {
  total_bytes: number;
  used_bytes: number;
  available_bytes: number;
  cached_bytes: number;
  buffers_bytes: number;
  percent: number;
  swap_total_bytes: number;
  swap_used_bytes: number;
  swap_percent: number;
} | null;

export type HostMemory = {
  total_bytes: number;
  used_bytes: number;
  percent: number;
  swap_total_bytes: number;
  swap_used_bytes: number;
};

/** Host rules, the alerting state, recent host alerts and the newest sample; with the 24-hour history unless `brief=1`. */
export type HostMonitor = {
  alerting: HostAlertingState;
  builtins: HostBuiltinRules;
  custom: HostCustomRule[];
  /** Host rules firing now. */
  firing: number;
  /** The latest host alerts, newest first. */
  recent: HostRecentAlert[];
  /** The newest minute sample; null before the first. */
  latest: null | HostLatestSample;
  history?: HostMonitorHistory;
};

/** The last 24 hours of minute samples (at most 1,440), one array per metric. */
export type HostMonitorHistory = {
  /** Epoch ms of each minute sample, oldest first. */
  t: number[];
  cpu: Array<number | null>;
  mem: Array<number | null>;
  swap: Array<number | null>;
  temp: Array<number | null>;
  disk: Array<number | null>;
  battery: Array<number | null>;
};

/** perch's shape: `{cpu|mem|temp|disk|battery: {on, th}}`; keys left out stay as they are. */
export type HostMonitorSettings = {
  cpu?: HostBuiltinInput;
  mem?: HostBuiltinInput;
  temp?: HostBuiltinInput;
  disk?: HostBuiltinInput;
  battery?: HostBuiltinInput;
};

export type HostMount = {
  device: string;
  mount: string;
  fs_type: string;
  total_bytes: number | null;
  used_bytes: number | null;
  available_bytes: number | null;
  percent: number | null;
};

/** This machine now: what a fleet grid and the home tiles show. */
export type HostOverview = {
  hostname: string;
  os: string;
  kernel: string;
  arch: string;
  uptime_s: number;
  taken_at: string;
  cpu: HostCpu;
  memory: HostMemory;
  temperature_c: number | null;
  disk_percent: number | null;
  battery: null | HostBattery;
};

export type HostProcess = {
  pid: number;
  ppid: number;
  name: string;
  state: string;
  /** Share of one core, as top shows it: 200 is two cores busy. */
  cpu_percent: number;
  rss_bytes: number;
  mem_percent: number;
  /** The command line, cut at 1,000 characters; empty for kernel threads. */
  command: string;
};

export type HostProcesses = {
  sort: "cpu" | "mem";
  /** Processes running (matching q when given). */
  total: number;
  /** The window CPU shares are measured over. */
  interval_ms: number;
  processes: HostProcess[];
};

export type HostRecentAlert = {
  id: string;
  rule_id: string;
  rule_name: string;
  severity: "info" | "warning" | "critical";
  status: "firing" | "resolved";
  value: number | null;
  summary: string;
  fired_at: string;
  resolved_at: string | null;
  suppressed: "cooldown" | "flapping" | null;
};

export type HostSampleRow = {
  /** The minute, epoch ms. */
  t: number;
  cpu: number | null;
  mem: number | null;
  swap: number | null;
  load1: number | null;
  temp: number | null;
  disk: number | null;
  battery: number | null;
  net_rx: number | null;
  net_tx: number | null;
  io_read: number | null;
  io_write: number | null;
};

export type HostSensor = {
  chip: string;
  label: string;
  celsius: number;
};

export type HostTrend = {
  range: "24h" | "7d" | "30d" | "90d";
  resolution: "minute" | "hour";
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  until: number;
  /** Units: percentages 0..100, °C, bytes a second; load1 is the 1-minute load. */
  metrics: Array<"cpu" | "mem" | "swap" | "load1" | "temp" | "disk" | "battery" | "net_rx" | "net_tx" | "io_read" | "io_write">;
  /** For 24h: one row a minute, oldest first (empty for the other ranges). */
  samples: HostSampleRow[];
  /** For 7d, 30d, 90d: one row per finished hour with each metric's average and peak, oldest first (empty for 24h). */
  hours: HostHourRow[];
};

export type IngestOutcome = {
  stored: number;
  /** Records skipped: already stored under their id. */
  duplicates: number;
  /** Stored records in which the agent's policy masked or removed what was sent in clear (their `agent_masked` says where). */
  redacted_by_agent: number;
  /** Records not stored: the agent's policy captures nothing on their route. */
  restricted: number;
};

export type InstalledPackage = {
  manager: "apt" | "dnf" | "pacman" | "zypper" | "snap" | "flatpak";
  name: string;
  version: string;
  /** The version an update installs; null: up to date (or not known). */
  new_version: string | null;
  /** Installed size; null where the manager does not say (snap). */
  size_bytes: number | null;
  description: string;
};

export type InstalledPackages = {
  /** The manager listed; null when the machine has none. */
  manager: "apt" | "dnf" | "pacman" | "zypper" | "snap" | "flatpak" | null;
  /** Every manager found here, the native one first. */
  managers: Array<"apt" | "dnf" | "pacman" | "zypper" | "snap" | "flatpak">;
  native: "apt" | "dnf" | "pacman" | "zypper" | "snap" | "flatpak" | null;
  /** Packages installed under this manager. */
  total: number;
  /** Packages the filter matched, before the row cap. */
  matched: number;
  /** Installed packages with an update, whatever the filter. */
  updatable: number;
  /** More matched than `limit`: narrow the filter. */
  truncated: boolean;
  /** Updates were read (apt: from its lists as of the last refresh). */
  updates_known: boolean;
  /** Why the list or its updates could not be read. */
  note: string | null;
  read_at: string | null;
  rows: InstalledPackage[];
};

export type InterfaceRate = {
  name: string;
  loopback: boolean;
  rx_bps: number | null;
  tx_bps: number | null;
  rx_pps: number | null;
  tx_pps: number | null;
  rx_bytes: number;
  tx_bytes: number;
  rx_errors: number;
  tx_errors: number;
  rx_dropped: number;
  tx_dropped: number;
  new_errors: number | null;
  new_drops: number | null;
};

export type JudgeProvider = {
  name: string;
  base_url: string;
  model: string;
  has_key: boolean;
  /** The environment variable the key comes from (never its value). */
  key_env: string | null;
};

export type JudgeProviderList = {
  data: JudgeProvider[];
};

/** One prompt version as applications fetch it. */
export type KeptPrompt = {
  name: string;
  version: number;
  /** SHA-256 (hex) of the normalised text as sent: the version's identity. */
  hash: string;
  type: "text" | "chat";
  /** The normalised text as kept (the project's detectors applied); a chat prompt's messages as JSON. */
  text: string;
  /** A chat prompt's messages; null for text. */
  messages: null | Array<PromptChatMessage | PromptChatPlaceholder>;
  /** Labels naming this version; `latest` when it is the newest. */
  labels: string[];
  /** The JSON config given when the version was created; null when none. */
  config: unknown;
  commit_message: string | null;
  /** Who created it; `detected` for a version first seen in traffic. */
  created_by: string;
  created_at: string;
};

export type KernelTunable = {
  key: string;
  value: string;
};

export type KernelTunables = {
  /** Tunables matching q (all readable ones without it). */
  total: number;
  /** Sorted by key; read-only (sysctl -a), values cut at 512 characters. */
  tunables: KernelTunable[];
};

export type KillPortResult = {
  pid: number;
  port: number;
  signal: "SIGTERM" | "SIGKILL";
  via: "direct" | "helper";
  /** The process had ended within 2 s of the signal. */
  exited: boolean;
  message: string;
};

export type LangfuseIngestionResponse = {
  successes: Array<{
    id: string;
    status: number;
  }>;
  errors: Array<{
    id: string;
    status: number;
    message?: string;
    [key: string]: unknown;
  }>;
};

export type LangfusePrompt = {
  id: string;
  name: string;
  version: number;
  type: "text" | "chat";
  prompt: string | Array<Record<string, unknown>>;
  config: unknown;
  labels: string[];
  /** Always empty: Vigil keeps no prompt tags. */
  tags: string[];
  commitMessage: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  projectId: string;
  /** Langfuse's older flag: labelled `production`. */
  isActive: boolean;
  resolutionGraph: null;
};

export type ListedRule = {
  index: number;
  /** Rule identifier, listed in matched_rules. */
  name: string;
  match: {
    /** Path glob, starting with /; matched against the folded path (policies/README.md, "Paths"). */
    path: string;
    methods?: string[];
  };
  restrict?: Array<"request_body" | "response_body" | "headers">;
  redact?: {
    headers?: string[];
    query_params?: string[];
    json_fields?: string[];
    /** Kinds of sensitive-looking values masked wherever they appear in the record, whatever the field is called. */
    detect?: Array<"card_number" | "iban" | "email" | "jwt" | "aws_access_key_id" | "private_key" | "bearer_token" | "api_key" | "us_ssn">;
  };
  labels?: Record<string, string>;
  sample?: number;
  keep_errors?: boolean;
  meter?: {
    tokens?: string;
  };
  /** WASM policy module for the requests this rule matches; relative to the config file. */
  wasm?: string;
  /** SHA-256 of the module file as loaded, beside `wasm`. */
  wasm_sha256?: string;
  source?: ConfigLocation;
};

export type ListeningPort = {
  protocol: "tcp" | "udp";
  family: 4 | 6;
  address: string;
  port: number;
  inode: number;
  /** Other machines can reach it: bound to a wildcard or an outside address. */
  visible: boolean;
  uid: number;
  user: string;
  /** The process Stop and Force act on (the lowest pid holding the socket); null when none could be read. */
  pid: number | null;
  pids: number[];
  name: string | null;
  command: string | null;
  /** The process's start (clock ticks since boot); killport refuses the pid when it changed. */
  start_ticks: number | null;
  /** Set on Vigil's own sockets (no buttons): what they are. */
  own: string | null;
  /** Vigil may signal the process itself. */
  can_signal: boolean;
  /** For another user's listener: the command that stops it with privileges (by pid, or by port through lsof when the pid is hidden). */
  elevated_command: string | null;
};

/** Listening TCP and UDP sockets, IPv4 and IPv6, with their processes, sorted by port. */
export type ListeningPorts = {
  ports: ListeningPort[];
  /** Listening sockets on this machine. */
  total: number;
  /** Those the filter kept, before the limit. */
  matched: number;
  /** Processes whose descriptors Vigil may not read (another user's, when not root): their sockets show no process. */
  hidden_processes: number;
  /** The walk of every process's descriptors hit network.owner_walk_budget: some owners are missing. */
  partial: boolean;
  /** A socket table held more than 20,000 lines; the rest were not read. */
  truncated: boolean;
  taken_at: string;
  vigil: NetworkSelf;
  elevation: NetworkElevation;
};

export type LlmDigestAlert = {
  rule_name: string;
  fired: number;
};

export type LlmDigestData = {
  project: string;
  from: string;
  /** Exclusive. */
  to: string;
  requests: number;
  previous_requests: number;
  cost_usd: number;
  previous_cost_usd: number;
  scores: LlmDigestScore[];
  versions: LlmDigestVersion[];
  alerts: LlmDigestAlert[];
};

export type LlmDigestPreview = {
  data: LlmDigestData;
  message: DigestMessage;
};

export type LlmDigestScore = {
  template: string;
  avg_score: number;
  samples: number;
};

export type LlmDigestVersion = {
  template: string;
  version: number;
  created_at: string;
};

export type LlmProject = {
  name: string;
  source: "config" | "store";
  settings: ProjectSettings;
  effective: EffectiveProjectSettings;
  created_at: string;
  updated_at: string;
};

export type LlmProjectList = {
  data: LlmProjectWithKeys[];
};

export type LlmProjectWithKeys = {
  name: string;
  source: "config" | "store";
  settings: ProjectSettings;
  effective: EffectiveProjectSettings;
  created_at: string;
  updated_at: string;
  keys: ProjectKeyHint[];
  usage: ProjectMonthUsage;
};

export type LlmSession = {
  session_id: string;
  /** The user of the session's traces (the greatest id when they differ). */
  user_id: string | null;
  first_seen: string;
  last_seen: string;
  turns: number;
  errors: number;
  /** USD of the calls with a known cost. */
  cost_usd: number;
  total_tokens: number;
  /** Summed latency of the turns that reported one. */
  latency_ms: number;
  avg_latency_ms: number | null;
};

export type LlmSessionPage = {
  data: LlmSession[];
  total: number;
  limit: number;
  offset: number;
  from: string;
  to: string;
};

export type LlmSessionReplay = {
  session: LlmSession;
  /** The session's stored traces, oldest first. */
  turns: StoredTrace[];
  limit: number;
  offset: number;
  /** The offset of the next page of turns; null on the last. */
  next_offset: number | null;
  /** The page holds fewer turns than `limit` because of their size. */
  truncated: boolean;
};

export type LlmUser = {
  user_id: string;
  first_seen: string;
  last_seen: string;
  requests: number;
  sessions: number;
  errors: number;
  /** USD of the calls with a known cost. */
  cost_usd: number;
  total_tokens: number;
  avg_latency_ms: number | null;
  eval: {
    avg_score: number | null;
    samples: number;
    failed: number;
    /** The user's latest traces whose eval results were read. */
    traces: number;
  };
};

export type LlmUserDetail = {
  user: LlmUser;
  eval_by_definition: Array<{
    eval_definition_id: string;
    name: string;
    method: string;
    avg_score: number | null;
    samples: number;
    failed: number;
  }>;
  from: string;
  to: string;
};

export type LlmUserPage = {
  data: LlmUser[];
  total: number;
  limit: number;
  offset: number;
  from: string;
  to: string;
};

export type LogLine = {
  time: string | null;
  /** 0 emerg … 7 debug; null for a file line. */
  priority: number | null;
  /** The systemd unit, else the syslog identifier or command. */
  unit: string | null;
  pid: number | null;
  message: string;
};

export type LogLines = {
  source: "system" | "user" | "kernel" | "file";
  /** What was read: without a journal, a journal view reads its syslog file. */
  origin: "journal" | "file" | "none";
  path: string | null;
  lines: LogLine[];
  /** Pass back as `cursor` for the lines after these. */
  cursor: string | null;
  truncated: boolean;
  note: string | null;
};

export type LogWatchConfig = {
  enabled: boolean;
  rules: LogWatcherView[];
  /** The alert source each watcher is a scope of (scope.target = its name). */
  alert_source: string;
  interval_s: number;
  dedup_s: number;
  max_rules: number;
};

export type LogWatchMatch = {
  line: string;
  seen_at: string;
};

export type LogWatchTest = {
  matches: LogWatchTestMatch[];
  /** Lines that matched, of which the newest 50 are listed. */
  matched: number;
  lines_read: number;
  origin: "journal" | "file" | "none";
  path: string | null;
  note: string | null;
  /** The pattern ran past 250 ms over these lines: it would be skipped while watching. */
  timed_out: boolean;
};

export type LogWatchTestMatch = {
  time: string | null;
  line: string;
};

export type LogWatcher = {
  /** The alert rules' scope.target. */
  name: string;
  /** A JavaScript regular expression, matched against each line. */
  pattern: string;
  ignore_case?: boolean;
  source: "system" | "user" | "kernel" | "file";
  /** For source=file: an absolute path under the allowed folders. */
  path?: string | null;
  enabled?: boolean;
};

export type LogWatcherConfig = {
  enabled?: boolean;
  rules: LogWatcher[];
};

export type LogWatcherState = {
  /** When its source was last read. */
  polled_at: string | null;
  last_error: string | null;
  /** How its source was read, e.g. a file instead of a missing journal. */
  note: string | null;
  matches_24h: number;
  recent: LogWatchMatch[];
};

export type LogWatcherView = {
  /** The alert rules' scope.target. */
  name: string;
  /** A JavaScript regular expression, matched against each line. */
  pattern: string;
  ignore_case: boolean;
  source: "system" | "user" | "kernel" | "file";
  /** For source=file: an absolute path under the allowed folders. */
  path: string | null;
  enabled: boolean;
  state: LogWatcherState;
};

/** One rule behind a masked field, and the setting of it that masks the field. */
export type MaskRule = {
  rule: string;
  by: "headers" | "query_params" | "json_fields" | "detect";
  /** The header, parameter or JSON path named, or the detector kinds. */
  what: string;
};

export type MaskSource = {
  part: "header" | "response_header" | "query" | "request_body" | "response_body";
  field: string;
  /** A detector masked a span inside the value, not the whole value. */
  span?: boolean;
  /** The matched rules whose redaction covers the field; empty when none does now. */
  rules: MaskRule[];
};

export type MaskSources = {
  fields: MaskSource[];
};

export type NetworkConnection = {
  protocol: "tcp" | "udp";
  family: 4 | 6;
  local_address: string;
  local_port: number;
  remote_address: string;
  remote_port: number;
  state: string;
  uid: number;
  user: string;
  pid: number | null;
  name: string | null;
  command: string | null;
};

/** TCP and UDP connections with their processes, grouped by state, with the busiest remote addresses. */
export type NetworkConnections = {
  connections: NetworkConnection[];
  /** Connections on this machine. */
  total: number;
  /** Those the filter kept, before the limit. */
  matched: number;
  states: ConnectionStateCount[];
  busiest: BusyRemote[];
  /** With resolve=1: the name of each remote address looked up (null: none found in time). */
  names: Record<string, string | null>;
  resolve: null | ResolveCount;
  /** Processes whose descriptors Vigil may not read (another user's, when not root): their sockets show no process. */
  hidden_processes: number;
  /** The walk of every process's descriptors hit network.owner_walk_budget: some owners are missing. */
  partial: boolean;
  /** A socket table held more than 20,000 lines; the rest were not read. */
  truncated: boolean;
  taken_at: string;
};

export type NetworkElevation = {
  /** How privileged actions run: direct (Vigil is root), through the helper (sudo or pkexec), or not at all. */
  via: "direct" | "helper" | null;
  /** The helper needs this session's password first (POST /api/privilege/unlock). */
  password_needed: boolean;
  note: string;
};

/** Per-interface rates in and out (bytes and packets a second) with error and drop counters, from /proc/net/dev. */
export type NetworkIo = {
  taken_at: string;
  /** The time the rates are measured over. */
  interval_ms: number;
  interfaces: InterfaceRate[];
};

export type NetworkSelf = {
  pid: number;
  uid: number;
};

export type NewPassword = {
  password: string;
};

export type OldFilesScan = {
  clock: "atime" | "mtime";
  clock_note: string;
  rows: StorageFileRow[];
  matched: number;
  /** bytes */
  matched_bytes: number;
};

export type OtlpExportResponse = {
  /** Rejected spans or log records, and why. */
  partialSuccess?: Record<string, unknown>;
};

export type PackageJobStarted = {
  /** Follow it with GET /api/job?id=&since=; cancel it with POST /api/job/cancel. */
  job: string;
  title: string;
};

export type PacketSummary = {
  index: number;
  time_us: number;
  length: number;
  captured: number;
  protocol: string;
  src: string | null;
  dst: string | null;
  src_port: number | null;
  dst_port: number | null;
  tcp_flags: string | null;
  info: string;
};

export type PendingUpdateCounts = {
  total: number;
  security: number;
  manager: string;
};

export type PgContainer = {
  env: "docker" | "podman" | "nerdctl" | "lxd" | "incus" | "kubernetes";
  id: string;
  name: string;
  image: string;
  running: boolean;
  /** The host port published for 5432, if any. */
  port: number | null;
  /** The host address it is published on (127.0.0.1 for 0.0.0.0). */
  host: string | null;
};

export type PgContainers = {
  containers: PgContainer[];
};

export type PluginDigestSent = {
  event_id: string;
  deliveries: DigestDelivery[];
};

export type PluginVersion = {
  name: string;
  version: string;
};

export type PodRow = {
  env: "kubernetes";
  namespace: string;
  name: string;
  ready: number;
  total: number;
  restarts: number;
  node: string | null;
  phase: string;
  /** Epoch seconds; null when the engine does not say. */
  created: number | null;
  containers: string[];
};

export type PolicyInForce = {
  config_file: string | null;
  /** Epoch ms at which the rules in force were loaded (start or reload). */
  loaded_at: number;
  /** Reloads (SIGHUP) whose rules were taken since the runtime started. */
  reloads: number;
  rules: ListedRule[];
};

export type PolicyRuleUsage = {
  range: string;
  /** Epoch ms. */
  from: number;
  /** Epoch ms. */
  to: number;
  rules: RuleUsage[];
  unmatched: UnmatchedUsage;
};

export type Pricing = {
  per_1k_tokens: number;
  per_request: number;
};

export type PrivilegeStatus = {
  /** root: Vigil runs as root; sudo: with the password of Vigil's user; pkexec: a polkit rule; none: host actions cannot run. */
  method: "root" | "sudo" | "pkexec" | "none";
  /** The user Vigil runs as: sudo wants this user's password. */
  user: string;
  /** sudo needs this session's password before a host action runs. */
  password_needed: boolean;
  /** This session's password is held, in memory only. */
  unlocked: boolean;
  /** When the held password is forgotten unless used again. */
  expires_at: string | null;
  /** Why host actions cannot run. */
  note: string | null;
};

export type PrivilegedJob = {
  id: string;
  title: string;
  verb: "package-refresh" | "package-upgrade" | "package-remove" | "package-upgrade-all" | "firewall-rules" | "tcpdump-capture" | "smartctl-health" | "kill" | "systemctl-unit";
  args: string[];
  /** Who started it. */
  actor: string;
  state: "running" | "done" | "failed" | "cancelled";
  /** Percent, when the program reports it (apt does); null otherwise. */
  progress: number | null;
  started_at: string;
  ended_at: string | null;
  result: null | PrivilegedJobResult;
  /** Index of the oldest line still kept (a job keeps its last 10000). */
  first: number;
  /** Pass as `since` for the lines after these. */
  next: number;
  lines: string[];
};

export type PrivilegedJobResult = {
  ok: boolean;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  cancelled: boolean;
  method: "root" | "sudo" | "pkexec";
  duration_ms: number;
};

export type PrivilegedJobSummary = {
  id: string;
  title: string;
  verb: "package-refresh" | "package-upgrade" | "package-remove" | "package-upgrade-all" | "firewall-rules" | "tcpdump-capture" | "smartctl-health" | "kill" | "systemctl-unit";
  args: string[];
  /** Who started it. */
  actor: string;
  state: "running" | "done" | "failed" | "cancelled";
  /** Percent, when the program reports it (apt does); null otherwise. */
  progress: number | null;
  started_at: string;
  ended_at: string | null;
  result: null | PrivilegedJobResult;
  /** Output lines so far. */
  lines: number;
};

export type PrivilegedJobs = {
  jobs: PrivilegedJobSummary[];
};

export type ProjectBill = {
  project: string;
  plan: string | null;
  /** Stored traces whose time is in the month. */
  items: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  /** The application's calls (USD). */
  cost_usd: number;
  /** The evals' own calls (judges, embeddings) on the month's traces (USD). */
  eval_cost_usd: number;
  total_cost_usd: number;
  counted: BillingCounted;
  limits: BillingLimitUsage[];
  /** none: no limit; near: at 80 % or more; over: at or past it. */
  state: "none" | "ok" | "near" | "over";
  plan_limits: BillingPlanLimits;
};

export type ProjectKeyHint = {
  hint: string;
  source: "config" | "store";
  created_at: string;
  expires_at: string | null;
};

export type ProjectLauncherLimits = {
  max_running: number;
  timeout_s: number;
  output_cap_kib: number;
  history_keep: number;
};

export type ProjectMonthUsage = {
  month: string;
  items: number;
  cost_usd: number;
  sampled_out: number;
};

export type ProjectRun = {
  id: string;
  folder: string;
  kind: "npm" | "pnpm" | "yarn" | "bun" | "make";
  name: string;
  /** The program and its arguments, run without a shell in the folder. */
  argv: string[];
  command: string;
  /** Who started it. */
  actor: string;
  state: "running" | "succeeded" | "failed" | "stopped" | "timed_out";
  exit_code: number | null;
  /** The signal that ended the leader, when one did. */
  signal: string | null;
  /** Why it ended so (stopped by whom, the time limit, not installed). */
  note: string | null;
  started_at: string;
  ended_at: string | null;
  duration_ms: number;
  /** Bytes the run printed in all. */
  output_bytes: number;
  /** Bytes the output cap dropped before the kept output. */
  dropped_bytes: number;
  /** Output lines so far (the index after the last); 0 in the history, whose rows keep only a tail: open the run for it. */
  lines: number;
};

export type ProjectRunInput = {
  dir: string;
  kind: "npm" | "pnpm" | "yarn" | "bun" | "make";
  name: string;
};

export type ProjectRunPage = {
  id: string;
  folder: string;
  kind: "npm" | "pnpm" | "yarn" | "bun" | "make";
  name: string;
  /** The program and its arguments, run without a shell in the folder. */
  argv: string[];
  command: string;
  /** Who started it. */
  actor: string;
  state: "running" | "succeeded" | "failed" | "stopped" | "timed_out";
  exit_code: number | null;
  /** The signal that ended the leader, when one did. */
  signal: string | null;
  /** Why it ended so (stopped by whom, the time limit, not installed). */
  note: string | null;
  started_at: string;
  ended_at: string | null;
  duration_ms: number;
  /** Bytes the run printed in all. */
  output_bytes: number;
  /** Bytes the output cap dropped before the kept output. */
  dropped_bytes: number;
  /** The run is in this process's memory (its kept output); false: from the history, its output's tail only. */
  live: boolean;
  /** Index of the oldest line still kept. */
  first: number;
  /** Pass as `since` for the lines after these. */
  next: number;
  lines: string[];
};

export type ProjectRuns = {
  /** Runs of this process still in memory (running, or ended in the last hour), newest first. */
  runs: ProjectRun[];
  /** Finished runs from the store, newest first. */
  history: ProjectRun[];
};

export type ProjectScript = {
  /** npm/pnpm/yarn/bun: a package.json script (runner chosen by `packageManager` or the lockfile); make: a make target. */
  kind: "npm" | "pnpm" | "yarn" | "bun" | "make";
  name: string;
  /** The program and its arguments, run without a shell in the folder. */
  argv: string[];
  /** argv as one line, for reading (quoted where a shell would need it). */
  command: string;
  /** The script's text, or where the target's recipe is (Makefile:12). */
  detail: string | null;
  /** make: the `.DEFAULT_GOAL`. */
  default_goal?: boolean;
  /** make: listed in `.PHONY`. */
  phony?: boolean;
};

export type ProjectScripts = {
  /** Folders projects may be picked from (real paths). */
  roots: string[];
  /** The folder listed (its real path); null when none was asked. */
  dir: string | null;
  /** Its parent when still under a root (the picker's "up"). */
  parent: string | null;
  /** Sub-folder names (not hidden ones, not node_modules), at most 500. */
  folders: string[];
  /** There were more sub-folders than listed. */
  folders_more: boolean;
  scripts: ProjectScript[];
  /** package.json's runner and why it is that one. */
  runner: null | {
    name: "npm" | "pnpm" | "yarn" | "bun";
    reason: string;
  };
  makefile: string | null;
  /** What could not be read or was left out. */
  notes: string[];
  limits: ProjectLauncherLimits;
};

/** The project's own settings, as set. */
export type ProjectSettings = {
  /** A plan of llm.plans: its limits, budget and retention apply where the project sets none of its own. */
  plan?: string;
  /** Month-to-date spend (UTC calendar month) against a cap; over the cap, ingest keeps a sample. */
  budget?: {
    /** The cap in USD. Absent: no cap. */
    monthly_usd?: number;
    /** Share of items kept once the cap is reached (0 keeps none). Default 0.1. */
    over_budget_sample_rate?: number;
  };
  /** Plan limits. */
  limits?: {
    /** Items accepted per calendar month (UTC); past it, 429. Absent: no limit. */
    items_per_month?: number;
    /** Items per request; more is 413. Default 1,000. */
    items_per_batch?: number;
    /** Request body size, compressed and decompressed; more is 413. Default 5mb, at most llm.max_body_bytes. */
    body_bytes?: string | number;
    /** Object keys and array elements in one item, at every level; an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 10,000. */
    item_keys?: number;
    /** UTF-8 bytes of all strings of one item (keys included); an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 1mb, at most the body limit. */
    item_bytes?: string | number;
  };
  /** What is redacted before anything is stored (the governance policy's governJson). */
  redact?: {
    /** JSON paths over the item ($.input.**.email, $.metadata.user.phone); their values become the marker. */
    json_fields?: string[];
    /** Detectors masked in every string of input, output and metadata. Default: all (card_number, iban, email, jwt, aws_access_key_id, private_key, bearer_token, api_key, us_ssn); [] turns them off. */
    detect?: Array<"card_number" | "iban" | "email" | "jwt" | "aws_access_key_id" | "private_key" | "bearer_token" | "api_key" | "us_ssn">;
  };
  /** Traces older than this are deleted. Default llm.defaults.retention (30d). */
  retention?: string | number;
};

export type ProjectStats = {
  range: string;
  from: string;
  to: string;
  step_ms: number;
  requests: number;
  errors: number;
  error_rate: number;
  latency_ms: {
    p50: number | null;
    p95: number | null;
    p99: number | null;
  };
  tokens: {
    input: number;
    output: number;
    total: number;
  };
  cost_usd: number;
  eval_score_avg: number | null;
  eval: {
    score_avg: number | null;
    samples: number;
    failed: number;
    skipped: number;
    cost: {
      tokens_in: number;
      tokens_out: number;
      usd: number;
    };
    by_definition: DefinitionScore[];
  };
  series: ProjectStatsPoint[];
};

export type ProjectStatsPoint = {
  time: string;
  requests: number;
  errors: number;
  error_rate: number;
  tokens: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  avg_latency_ms: number | null;
  p95_latency_ms: number | null;
  p99_latency_ms: number | null;
  avg_score: number | null;
};

export type PromptChatMessage = {
  role: string;
  content: string;
};

export type PromptChatPlaceholder = {
  type: "placeholder";
  name: string;
};

export type PromptLabel = {
  label: string;
  version: number;
  updated_at: string;
  updated_by: string;
};

export type PromptLabelChange = {
  name: string;
  label: string;
  version: number | null;
  previous_version: number | null;
  /** False when the label already named that version (no history row is added). */
  changed: boolean;
};

export type PromptLabelMove = {
  label: string;
  /** null: the label was removed. */
  version: number | null;
  previous_version: number | null;
  at: string;
  actor: string;
};

export type PromptLabels = {
  name: string;
  newest: number;
  /** The labels a team set (`latest` is the newest version, not listed). */
  labels: PromptLabel[];
  /** Moves of the labels, newest first, at most 200. */
  history: PromptLabelMove[];
};

export type PromptTemplate = {
  name: string;
  latest_version: number | null;
  version_count: number;
  /** The newest versions, oldest first. */
  versions: PromptVersionSummary[];
};

export type PromptTemplatePage = {
  data: PromptTemplate[];
  limit: number;
  offset: number;
};

export type PromptVersion = {
  template: string;
  version: number;
  hash: string;
  created_at: string;
  text: string;
  previous_version: number | null;
  against: number | null;
  /** `diff -u` text; empty for equal texts; null without a version to compare with, or when too_large. */
  diff: string | null;
  /** True when the two versions are too different or too long to diff inline. */
  too_large: boolean;
  diff_omitted: null | {
    code: string;
    reason: "size" | "edits" | "work";
    message: string;
    /** Paths of both texts (GET …/versions/:n/text). */
    downloads: {
      from: string;
      to: string;
    };
  };
  stats: PromptVersionStats;
  eval_scores: DefinitionScore[];
};

export type PromptVersionStats = {
  requests: number;
  errors: number;
  error_rate: number;
  avg_score: number | null;
  eval_samples: number;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
  p99_latency_ms: number | null;
  cost_usd: number;
  avg_cost_usd: number | null;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  first_seen: string | null;
  last_seen: string | null;
};

export type PromptVersionSummary = {
  version: number;
  hash: string;
  created_at: string;
  requests: number;
  errors: number;
  error_rate: number;
  avg_score: number | null;
  eval_samples: number;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
  p99_latency_ms: number | null;
  cost_usd: number;
  avg_cost_usd: number | null;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  first_seen: string | null;
  last_seen: string | null;
};

export type ProxyStatus = {
  /** The listening address, e.g. http://0.0.0.0:8080; empty before the proxy listens. */
  url: string;
  /** service.upstream, without a user name or password. */
  upstream: string;
};

export type ReachablePort = {
  protocol: "tcp" | "udp";
  address: string;
  port: number;
  process: string | null;
};

export type ReceivedScore = {
  id: string;
  /** The Vigil trace item the score names, or null when it names only the sender's trace. */
  trace_id: string | null;
  sender_trace_id: string | null;
  observation_id: string | null;
  name: string;
  source: string;
  data_type: string;
  /** On the sender's scale. */
  value: number | string | null;
  comment: string | null;
  created_at: string;
  received_at: string;
};

export type ReceivedScorePage = {
  data: ReceivedScore[];
  limit: number;
  offset: number;
};

export type ResolveCount = {
  asked: number;
  /** Addresses past network.resolve.per_request, left unresolved. */
  skipped: number;
};

/** Per part, the matching rules that keep it out of capture (empty: captured). */
export type RestrictedParts = {
  request_body: string[];
  response_body: string[];
  headers: string[];
};

export type RotatedProjectKey = {
  key: string;
  previous_keys_expire_at: string;
};

export type RouteTraffic = {
  route: string;
  requests: number;
  errors: number;
  error_rate: number;
  /** Estimated from latency buckets; null without requests. */
  p95_ms: number | null;
  p99_ms: number | null;
  tokens: number;
};

export type RulePathUsage = {
  method: string;
  path: string;
  requests: number;
};

export type RuleUsage = {
  rule: string;
  requests: number;
  routes: RulePathUsage[];
  other_routes: number;
  other_requests: number;
};

export type SavedEvalDefinition = {
  definition: EvalDefinition;
  /** The trial of a custom_function; null for other types. */
  validation: null | EvalTrial;
};

/** Files and folders seen, their disk usage, entries that could not be read (never fatal) and entries not entered (symbolic links, other filesystems, past the depth limit). */
export type ScanCounts = {
  files: number;
  dirs: number;
  /** bytes */
  bytes: number;
  errors: number;
  skipped: number;
};

export type ScoredEvalResultPage = {
  data: Array<{
    id: string;
    eval_definition_id: string;
    trace_id: string;
    score: number | null;
    status: "ok" | "failed" | "skipped";
    reason: string | null;
    method: string;
    cost: {
      tokens_in: number;
      tokens_out: number;
      usd: number | null;
    };
    latency_ms: number;
    created_at: string;
    [key: string]: unknown;
  }>;
  limit: number;
  offset: number;
};

export type SearchHit = {
  /** absolute path */
  path: string;
  /** bytes */
  bytes: number;
  /** epoch ms */
  mtime_ms: number;
  /** epoch ms */
  atime_ms: number;
  dir: boolean;
};

export type SecurityFinding = {
  severity: "critical" | "warning" | "info";
  title: string;
  /** What it means and what to do, in plain words. */
  detail: string;
  /** The dashboard page that can fix it or show more. */
  path: string;
  /** What that page does about it: a terminal to edit a file, the listening ports, this overview, or the packages with updates. */
  action: "terminal" | "ports" | "overview" | "updates";
};

/** Read-only: nothing here changes the machine. */
export type SecurityOverview = {
  /** Worst first. */
  findings: SecurityFinding[];
  ssh: null | SshdSettings;
  failed_logins: null | FailedLogins;
  admins: null | AdminAccounts;
  auto_updates: AutoUpdates;
  pending_updates: null | PendingUpdateCounts;
  reachable_ports: null | ReachablePort[];
  firewall: null | FirewallSummary;
  /** What could not be looked at here, so the findings say nothing of it. */
  unchecked: string[];
  taken_at: string;
};

export type SelfUpdateCheck = {
  release: SelfUpdateRelease;
  checked_at: string;
  /** The release is newer than the installed version. */
  newer: boolean;
};

export type SelfUpdateCheckout = {
  commit: string | null;
  /** Null on a detached HEAD. */
  branch: string | null;
  upstream: string | null;
  remote: string | null;
  /** Tracked files with uncommitted changes. */
  changed: string[];
  /** Why Update now would refuse this checkout, and what to do. */
  refusal: string | null;
};

export type SelfUpdateJob = {
  state: "running" | "done" | "failed";
  /** The step running now, or how the update ended. */
  stage: string;
  /** The release being applied (empty until the feed answered). */
  version: string;
  /** Who pressed Update now. */
  actor: string;
  started_at: string;
  ended_at: string | null;
  outcome: null | SelfUpdateOutcome;
  error: null | {
    code: string;
    message: string;
  };
  /** Index of the oldest output line still kept. */
  first: number;
  /** Pass as `since` for the lines after these. */
  next: number;
  lines: string[];
};

export type SelfUpdateOutcome = {
  result: "updated" | "current";
  from: string;
  to: string;
  restart_needed: boolean;
  message: string;
};

export type SelfUpdateRelease = {
  version: string;
  /** The git tag of the release. */
  tag: string;
  /** The release notes (Markdown as the feed has them), at most 64 KiB. */
  notes: string;
  /** When the release was published, as the feed says. */
  published_at: string | null;
  /** The npm archive (npm installs update from it). */
  archive_url: string | null;
  /** SHA256SUMS, signed. */
  sums_url: string | null;
  /** SHA256SUMS.sig, the Ed25519 signature of SHA256SUMS. */
  signature_url: string | null;
};

export type SelfUpdateRestart = {
  restarting: true;
  method: "service manager" | "detached";
  /** This process, which stops now. */
  pid: number;
};

export type SelfUpdateStatus = {
  install_method: "git checkout" | "npm package" | "global npm package" | "npx" | "source tree";
  install_dir: string;
  running: {
    version: string;
    /** The commit this process started from (git checkouts). */
    commit: string | null;
  };
  /** The version on disk now: differs from the running one after an update, until a restart. */
  installed_version: string | null;
  /** Update now may run (a feed, a key, an install method it can update, nothing running); a checkout's own refusal is in `checkout.refusal`. */
  can_update: boolean;
  /** Why Update now cannot run, when it cannot. */
  blocked: string | null;
  source: {
    /** The feed, without query or credentials. */
    release_url: string | null;
    public_key: string | null;
  };
  checkout: null | SelfUpdateCheckout;
  latest: null | SelfUpdateCheck;
  update: null | SelfUpdateJob;
  restart: {
    /** The service manager that runs Vigil (systemd), which then starts it again; null: a detached relauncher does. */
    service_manager: string | null;
    restarting: boolean;
  };
};

export type Shell = {
  version: string;
  areas: ShellArea[];
  /** The enabled plugins. */
  plugins: string[];
  /** Absolute path; absent for a runtime started from code. */
  config_file?: string;
  /** How to call the CLI where this copy is installed. */
  cli: "vigil" | "npx vigil";
  settings: DisplaySettings;
};

export type ShellArea = {
  /** The area of the front end, e.g. gateway, llm. */
  id: string;
  /** Whether a plugin the area needs is enabled. */
  configured: boolean;
};

export type SmartAnswer = {
  device: string;
  passed: boolean | null;
  model: string | null;
  temperature_c: number | null;
  power_on_hours: number | null;
  summary: string;
};

export type SmartRequest = {
  device: string;
};

export type SshKey = {
  name: string;
  public_file: string | null;
  private_file: string | null;
  type: string | null;
  label: string | null;
  bits: number | null;
  /** SHA256:…, as ssh-keygen -lf prints it. */
  fingerprint: string | null;
  comment: string;
  /** The whole line ssh-keygen -lf prints for the public key. */
  keygen_line: string | null;
  /** The private key has a passphrase. */
  encrypted: boolean | null;
  /** The private key is readable by others: ssh refuses to use it. */
  loose_permissions: boolean;
  error: string | null;
};

export type SshKeygenInput = {
  /** The file name in ~/.ssh, e.g. id_ed25519_work. */
  name: string;
  comment?: string;
  /** Optional; given to ssh-keygen only, never logged, stored or answered. */
  passphrase?: string;
};

export type SshKeygenResult = {
  key: SshKey;
  folder: string;
};

export type SshKeys = {
  folder: string;
  exists: boolean;
  keys: SshKey[];
  authorized_keys: AuthorizedKeys;
  /** ~/.ssh has more than 200 entries; the first by name were read. */
  truncated: boolean;
};

/** The values sshd applies outside Match blocks (the first value of each keyword wins). */
export type SshdSettings = {
  permit_root_login: string;
  password_authentication: string;
  permit_empty_passwords: string;
  /** The files read, main file first, then each Include. */
  files: string[];
};

export type StorageFileRow = {
  /** absolute path */
  path: string;
  /** bytes */
  bytes: number;
  /** epoch ms */
  mtime_ms: number;
  /** epoch ms */
  atime_ms: number;
};

export type StorageInfo = {
  backend: "sqlite" | "postgres" | "none";
  /** The SQLite file, or PostgreSQL's host:port/database; never a credential. */
  location?: string;
};

/** A scan: its progress while it runs, its answer once it ends. */
export type StorageScan = {
  id: string;
  kind: "sizes" | "duplicates" | "old-files" | "search";
  state: "running" | "done" | "failed";
  /** why it ended early; null when it finished (or runs) */
  stop: "budget" | "cancelled" | "entries" | "results" | "deadline" | null;
  note: string | null;
  roots: string[];
  started_at: string;
  elapsed_ms: number;
  budget_ms: number;
  counts: ScanCounts;
  current: string;
  folder?: FolderSizes;
  duplicates?: DuplicateScan;
  old_files?: OldFilesScan;
  hits?: SearchHit[];
};

export type StorageScanRequest = {
  kind: "sizes" | "duplicates" | "old-files" | "search";
  /** the folder to scan (search: where to look; default files.scan_roots) */
  path?: string;
  /** time budget, seconds (default files.budget, at most files.max_budget) */
  budget?: number;
  /** the budget in ms instead (for a short one) */
  budget_ms?: number;
  /** duplicates and old files: smallest file considered, bytes */
  min_size?: number;
  /** old files: not used for this many days (default 180) */
  days?: number;
  /** search: the pattern */
  q?: string;
  /** search: q is a regular expression (JavaScript syntax) */
  regex?: boolean;
  case_sensitive?: boolean;
  /** search: results at most (default 500); old files: rows (default 200, at most 1000) */
  limit?: number;
  /** stay on the starting folder's filesystem (default true; search default false) */
  one_filesystem?: boolean;
};

export type StorageScans = {
  scans: StorageScan[];
};

export type StoredHomeLayout = {
  /** null: the default layout. */
  layout: null | HomeLayout;
};

/** The trace as stored: its sender's fields, redacted by the project's settings, with the id Vigil gave it. */
export type StoredTrace = {
  id: string;
  created_at: string;
  model: string;
  provider: string | null;
  name: string | null;
  status: "ok" | "error";
  /** The error the item sent, redacted; null when it sent none. */
  error: unknown;
  start_time: string | null;
  latency_ms: number | null;
  tokens: null | {
    input?: number;
    output?: number;
    cache_read?: number;
    total?: number;
  };
  cost_usd: number | null;
  /** True when Vigil priced the call from its model (the item sent no cost). */
  cost_estimated: boolean;
  input: unknown;
  output: unknown;
  prompt_template: null | {
    name: string;
    version: number;
    hash: string;
    variables?: unknown;
  };
  user_id: string | null;
  session_id: string | null;
  tags: string[];
  metadata: unknown;
  /** Present only on a trace stored before its call ended: a Langfuse generation idle without an end for llm.langfuse.unended_after. Its end, when it comes, replaces the trace and removes this. */
  incomplete?: "never_ended";
};

export type SystemTimer = {
  unit: string;
  activates: string | null;
  /** Next run, ISO 8601; null when none is scheduled. */
  next: string | null;
  /** Last run, ISO 8601; null when never. */
  last: string | null;
  enabled: string | null;
};

export type SystemTimers = {
  systemd: SystemdState;
  scope: "system" | "user";
  timers: SystemTimer[];
  error: string | null;
  elevation: UnitElevation;
};

export type SystemUnit = {
  unit: string;
  load: string;
  active: string;
  sub: string;
  description: string;
  /** The unit file's state: enabled, disabled, static, masked, … */
  enabled: string | null;
};

export type SystemUnits = {
  systemd: SystemdState;
  scope: "system" | "user";
  type: string;
  units: SystemUnit[];
  /** Units systemctl listed; more than `units` holds when cut at the bound. */
  total: number;
  /** What systemctl said when it could not list (a user scope without a user manager). */
  error: string | null;
  elevation: UnitElevation;
};

export type SystemdState = {
  /** Whether systemd is the init system (/run/systemd/system exists). */
  running: boolean;
  /** Why there is nothing to show, when it does not run. */
  note: string | null;
};

export type TenantSeries = {
  tenant: string;
  requests: number;
  tokens: number;
  cost: number;
  points: UsagePoints;
};

export type TenantUsage = {
  tenant: string;
  requests: number;
  tokens: number;
  cost: number;
};

export type TerminalStatus = {
  /** Whether `/ws/term` serves terminals (`terminal.enabled`). */
  enabled: boolean;
  /** The websocket path. */
  socket: string;
  /** The shell each terminal runs, as a login shell. */
  shell: string;
  /** Quiet time after which a terminal is closed; 0 never. */
  idle_timeout_ms: number;
  max_sessions: number;
  /** Terminals open now, in this process. */
  open: number;
  /** Largest client message; a larger one closes the socket with 1009. */
  max_input_bytes: number;
  /** Unacknowledged output above which the shell is paused. */
  high_water_bytes: number;
  /** Unacknowledged output below which it resumes. */
  low_water_bytes: number;
};

/** A text file for the preview and the editor; pass mtime_ms back when saving. */
export type TextFile = {
  path: string;
  bytes: number;
  mtime_ms: number;
  /** the file as UTF-8 text */
  text: string;
  /** the largest file the editor saves, bytes (files.edit_limit) */
  limit: number;
};

export type TextFileWrite = {
  path: string;
  text: string;
  /** the mtime_ms the editor read: the save is refused (409) when the file changed since */
  expected_mtime_ms?: number;
  /** make the file when it does not exist (default false) */
  create?: boolean;
};

export type TimerActionInput = {
  scope: "system" | "user";
  unit: string;
  action: "start" | "stop" | "enable" | "disable";
};

export type TracePage = {
  data: StoredTrace[];
  limit: number;
  offset: number;
  /** Cursor of the next page; null on the last. */
  next: string | null;
  /** The page holds fewer items than `limit` because of their size. */
  truncated: boolean;
};

export type TraceTree = {
  /** The OpenTelemetry or Langfuse trace id; null (and no nodes) for a call stored without spans. */
  trace_id: string | null;
  source: "otlp" | "langfuse" | null;
  item_id: string;
  name: string | null;
  start_time: string | null;
  end_time: string | null;
  /** No LLM call of the trace is stored (its spans are held for llm.spans.hold). */
  held: boolean;
  spans: number;
  /** Spans the bounds dropped (llm.spans.max_per_trace). */
  dropped_spans: number;
  /** Spans stored with parts left out (llm.spans.max_bytes). */
  truncated_spans: number;
  /** More than 2000 spans: the rest are not in this answer. */
  more: boolean;
  total: TreeRollup;
  /** Depth first: each parent before its children, siblings by start time. */
  nodes: TreeSpan[];
};

export type TraceWithProject = {
  project: string;
  trace: StoredTrace;
};

export type TrafficPoint = {
  /** Epoch ms. */
  time: number;
  requests: number;
  errors: number;
  error_rate: number;
  /** Estimated from latency buckets; null without requests. */
  p95_ms: number | null;
  p99_ms: number | null;
  tokens: number;
};

export type TrashItem = {
  name: string;
  path: string;
  deleted_at: string | null;
  bytes: number;
  dir: boolean;
};

export type TrashList = {
  dir: string;
  items: TrashItem[];
  total: number;
};

export type TrashRequest = {
  path: string;
};

export type TrashRestoreRequest = {
  name: string;
};

export type TreeRollup = {
  llm_calls: number;
  errors: number;
  /** USD of the LLM calls in the subtree. */
  cost_usd: number;
  tokens: {
    input: number;
    output: number;
    total: number;
  };
  /** From the subtree's first start to its last end. */
  latency_ms: number | null;
};

export type TreeSpan = {
  span_id: string;
  parent_id: string | null;
  depth: number;
  /** Its parent is not stored (not sent yet, or dropped by the bounds). */
  orphan: boolean;
  children: number;
  kind: "llm" | "agent" | "tool" | "retriever" | "chain" | "event" | "span";
  name: string;
  status: "ok" | "error";
  start_time: string | null;
  end_time: string | null;
  duration_ms: number | null;
  /** From the trace's start. */
  offset_ms: number | null;
  /** The stored LLM call this span is (GET /api/v1/traces/:item_id has its input and output). */
  item_id: string | null;
  model: string | null;
  tokens: null | {
    input: number | null;
    output: number | null;
    total: number | null;
  };
  cost_usd: number | null;
  truncated: boolean;
  rollup: TreeRollup;
  data_omitted: boolean;
  data: null | TreeSpanData;
};

export type TreeSpanData = {
  input: unknown;
  output: unknown;
  /** The span's attributes (Langfuse: its fields and metadata), redacted as an item's metadata. */
  attributes: unknown;
  error: unknown;
  /** Parts left out to fit llm.spans.max_bytes, with their size in bytes. */
  truncated: null | Record<string, number>;
  redaction_failed?: boolean;
};

export type TryResult = {
  /** A try is never stored, published or exported. */
  stored: false;
  record: GovernedRecord;
  matched_rules: string[];
  /** The matched rules' globs: what the record is filed under. */
  route: string[];
  restricted: RestrictedParts;
  /** [REDACTED] marks in the record. */
  redacted: number;
  sampling: TrySampling;
  wasm_not_applied: WasmNotApplied[];
  /** Values of the record that look sensitive and that no rule masked, as `vigil scan` finds them. */
  unmasked: UnmaskedValue[];
};

export type TrySampling = {
  rate: number;
  rule: string | null;
  keep_errors: boolean;
  kept: boolean;
};

export type UnitActionInput = {
  scope: "system" | "user";
  unit: string;
  action: "start" | "stop" | "restart" | "enable" | "disable";
};

export type UnitActionResult = {
  unit: string;
  action: string;
  scope: "system" | "user";
  /** What systemctl printed (enable lists the links it made). */
  output: string;
  /** user, root, sudo or pkexec. */
  via: string;
};

export type UnitElevation = {
  /** How actions on system units run: directly as root, through the privileged helper, or not at all. */
  system_actions: "root" | "helper" | "unavailable";
  note: string | null;
};

export type UnmaskedValue = {
  part: "query" | "header" | "request_body" | "response_body";
  /** Parameter or header name, or a JSON path (`$` for a text body). */
  field: string;
  /** The detector that recognised it. */
  kind: string;
  why: string;
  /** The value, masked but for a few characters. */
  sample: string;
  /** The rule that would mask it, as YAML for the `rules:` list. */
  rule: string;
};

export type UnmatchedUsage = {
  rule: null;
  requests: number;
  routes: RulePathUsage[];
  other_routes: number;
  other_requests: number;
};

/** A CloudEvents 1.0 event in JSON, as OpenMeter ingests it. */
export type UsageCloudEvent = {
  specversion: "1.0";
  /** Stable: `<project id>.<epoch day>.<arrival epoch day>`. */
  id: string;
  source: string;
  type: string;
  /** The project's name. */
  subject: string;
  time: string;
  datacontenttype: "application/json";
  data: UsageEventData;
};

export type UsageEventData = {
  project: string;
  day: string;
  items: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
};

export type UsageEventPage = {
  month: string;
  data: UsageCloudEvent[];
  /** The `after` of the next page; null on the last. */
  next: string | null;
  /** Events cover arrival days before this UTC date: later ones come in a later export. */
  closed_before: string;
};

export type UsageList = {
  range: string;
  /** Epoch ms. */
  from: number;
  /** Epoch ms. */
  to: number;
  /** The label that names the tenant. */
  tenant_label: string;
  currency: string;
  data: TenantUsage[];
  limit: number;
  offset: number;
};

/** One value per entry of `times`. */
export type UsagePoints = {
  requests: number[];
  tokens: number[];
  cost: number[];
};

export type UsageSeries = {
  range: string;
  /** Epoch ms. */
  from: number;
  /** Epoch ms. */
  to: number;
  step_ms: number;
  by: "requests" | "tokens" | "cost";
  tenant_label: string;
  currency: string;
  pricing: Pricing;
  totals: {
    requests: number;
    tokens: number;
    cost: number;
    tenants: number;
  };
  times: number[];
  series: TenantSeries[];
  /** Every tenant without a series of its own, summed. */
  other: {
    tenants: number;
    requests: number;
    tokens: number;
    cost: number;
    points: UsagePoints;
  };
};

export type WasmNotApplied = {
  rule: string;
  module: string;
};

export type WidgetSize = {
  /** Grid columns, 1-6, or "full" for the whole row. */
  w: number | "full";
  /** Grid rows, 1-6. */
  h: number;
};

/** The JSON answer of each operation, by `METHOD /path` as the OpenAPI document spells it. */
export interface ApiAnswers {
  'GET /api': {
    openapi: "3.1.0";
    info: Record<string, unknown>;
    paths: Record<string, unknown>;
    components: Record<string, unknown>;
    [key: string]: unknown;
  };
  'POST /api/ai': AssistantStreamEvent;
  'GET /api/alertctl': AlertingState;
  'POST /api/alertctl': AlertingState;
  'GET /api/alerts/channels': ChannelList;
  'POST /api/alerts/channels': ChannelView;
  'POST /api/alerts/channels/test-all': ChannelTestResults;
  'GET /api/alerts/channels/{id}': ChannelView;
  'PUT /api/alerts/channels/{id}': ChannelView;
  'DELETE /api/alerts/channels/{id}': ChannelDeleted;
  'POST /api/alerts/channels/{id}/test': ChannelTestResult;
  'GET /api/alerts/digests': DigestList;
  'GET /api/alerts/digests/llm/{project}/preview': LlmDigestPreview;
  'POST /api/alerts/digests/llm/{project}/send': DigestSent;
  'GET /api/alerts/digests/{digest}/preview': DigestPreview;
  'POST /api/alerts/digests/{digest}/send': PluginDigestSent;
  'GET /api/alerts/events': AlertEventList;
  'GET /api/alerts/rules': AlertRuleList;
  'POST /api/alerts/rules': AlertRule;
  'POST /api/alerts/rules/preview': AlertRulePreview;
  'GET /api/alerts/rules/{id}': AlertRule;
  'PUT /api/alerts/rules/{id}': AlertRule;
  'DELETE /api/alerts/rules/{id}': AlertRuleDeleted;
  'GET /api/alerts/sources': AlertSourceList;
  'GET /api/audit': AuditPage;
  'GET /api/backup': BackupState;
  'POST /api/backup': BackupState;
  'POST /api/backuprun': BackupState;
  'GET /api/caps': HostCaps;
  'GET /api/capture': CaptureInfo;
  'POST /api/capture': CaptureInfo;
  'POST /api/capturedelete': CaptureDeleted;
  'GET /api/capturepackets': CapturePackets;
  'GET /api/captures': CaptureList;
  'POST /api/capturestop': CaptureInfo;
  'POST /api/clean': CleanResult;
  'GET /api/cleanup': CleanupTargets;
  'GET /api/connections': NetworkConnections;
  'GET /api/containers': ContainersList;
  'GET /api/cron': Crontab;
  'POST /api/cronsave': Crontab;
  'GET /api/cronschedule': CronScheduleReading;
  'POST /api/ctraction': ContainerActionResult;
  'GET /api/ctrlogs': ContainerLogs;
  'GET /api/customrules': HostCustomRules;
  'POST /api/customrules': HostCustomRules;
  'POST /api/customtest': HostCustomTest;
  'GET /api/db/connections': DbConnectionList;
  'POST /api/db/connections': DbConnection;
  'PATCH /api/db/connections/{id}': DbConnection;
  'DELETE /api/db/connections/{id}': DbConnectionDeleted;
  'GET /api/db/connections/{id}/columns': DbColumnList;
  'POST /api/db/connections/{id}/query': DbQueryResult;
  'GET /api/db/connections/{id}/rows': DbRowsPage;
  'GET /api/db/connections/{id}/tables': DbTableList;
  'POST /api/dbquery': DbQueryResult;
  'GET /api/diskhealth': DiskHealth;
  'GET /api/dockerdisk': DockerDisk;
  'GET /api/du': StorageScan;
  'GET /api/dupes': StorageScan;
  'GET /api/files': FilesSettings;
  'GET /api/firewall': FirewallStatus;
  'POST /api/firewallrules': FirewallRules;
  'GET /api/fleet': FleetGrid;
  'GET /api/fleet/peer': HostOverview;
  'POST /api/fleet/peers': FleetPeer;
  'DELETE /api/fleet/peers/{name}': FleetPeerDeleted;
  'GET /api/fleet/tokens': FleetReadTokenList;
  'POST /api/fleet/tokens': FleetReadTokenCreated;
  'DELETE /api/fleet/tokens/{id}': FleetReadTokenRevoked;
  'GET /api/fleetconfig': FleetConfig;
  'POST /api/fleetconfig': FleetConfig;
  'GET /api/gateway/overview': GatewayOverview;
  'GET /api/gateway/policy': PolicyInForce;
  'POST /api/gateway/policy/mask-sources': MaskSources;
  'POST /api/gateway/policy/try': TryResult;
  'GET /api/gateway/policy/usage': PolicyRuleUsage;
  'GET /api/gateway/proxy': ProxyStatus;
  'GET /api/gateway/records': GovernedRecordPage;
  'POST /api/gateway/records': IngestOutcome;
  'GET /api/gateway/records/{id}': GovernedRecord;
  'GET /api/gateway/usage': UsageList;
  'GET /api/gateway/usage/series': UsageSeries;
  'GET /api/gnome': GnomeSettings;
  'POST /api/gnome': GnomeSettings;
  'GET /api/health': Health;
  'POST /api/health': AssistantStreamEvent;
  'GET /api/healthscore': HealthScore;
  'GET /api/homelayout': StoredHomeLayout;
  'POST /api/homelayout': StoredHomeLayout;
  'GET /api/host/live': HostLive;
  'POST /api/http': ApiSendResult;
  'POST /api/http/export': ApiExportResult;
  'POST /api/http/flow': ApiFlowResult;
  'POST /api/http/import': ApiImportResult;
  'GET /api/httpstore': ApiStore;
  'POST /api/httpstore': ApiStore;
  'GET /api/installed': InstalledPackages;
  'GET /api/job': PrivilegedJob;
  'POST /api/job/cancel': PrivilegedJobSummary;
  'GET /api/jobs': PrivilegedJobs;
  'GET /api/kernel': KernelTunables;
  'POST /api/killport': KillPortResult;
  'GET /api/llm': AssistantSettings;
  'GET /api/llm/billing': BillingMonth;
  'GET /api/llm/billing/events': UsageEventPage;
  'GET /api/llm/embeddings/status': {
    state: "idle" | "preparing" | "ready" | "failed";
    step: "module" | "converting" | "loading" | null;
    progress: number | null;
    elapsed_ms: number | null;
    method: string | null;
    reason: string | null;
  };
  'GET /api/llm/eval-providers': JudgeProviderList;
  'GET /api/llm/projects': LlmProjectList;
  'POST /api/llm/projects': CreatedLlmProject;
  'DELETE /api/llm/projects/{name}': {
    deleted: string;
    traces: number;
  };
  'POST /api/llm/projects/{name}/rotate-key': RotatedProjectKey;
  'PUT /api/llm/projects/{name}/settings': LlmProject;
  'GET /api/llm/projects/{project}/eval-results': EvalResultPage;
  'GET /api/llm/projects/{project}/evals': EvalDefinitionList;
  'POST /api/llm/projects/{project}/evals': SavedEvalDefinition;
  'POST /api/llm/projects/{project}/evals/test': EvalTrial;
  'GET /api/llm/projects/{project}/evals/{id}': EvalDefinition;
  'PUT /api/llm/projects/{project}/evals/{id}': SavedEvalDefinition;
  'DELETE /api/llm/projects/{project}/evals/{id}': {
    deleted: string;
    /** Results deleted with it. */
    results: number;
  };
  'POST /api/llm/projects/{project}/evals/{id}/rerun': EvalRerun;
  'GET /api/llm/projects/{project}/gate': GateVerdict;
  'GET /api/llm/projects/{project}/golden-sets': GoldenSetPage;
  'PUT /api/llm/projects/{project}/golden-sets/{template}': {
    template: string;
    outputs: string[];
  };
  'DELETE /api/llm/projects/{project}/golden-sets/{template}': {
    /** The template whose set was removed. */
    deleted: string;
  };
  'GET /api/llm/projects/{project}/prompt-templates': PromptTemplatePage;
  'GET /api/llm/projects/{project}/prompt-templates/{name}/versions/{n}': PromptVersion;
  'POST /api/llm/projects/{project}/prompts': CreatedPrompt;
  'GET /api/llm/projects/{project}/prompts/{name}': KeptPrompt;
  'GET /api/llm/projects/{project}/prompts/{name}/labels': PromptLabels;
  'PUT /api/llm/projects/{project}/prompts/{name}/labels/{label}': PromptLabelChange;
  'DELETE /api/llm/projects/{project}/prompts/{name}/labels/{label}': PromptLabelChange;
  'GET /api/llm/projects/{project}/sessions': LlmSessionPage;
  'GET /api/llm/projects/{project}/sessions/{session}': LlmSessionReplay;
  'GET /api/llm/projects/{project}/stats': ProjectStats;
  'GET /api/llm/projects/{project}/traces': TracePage;
  'GET /api/llm/projects/{project}/traces/{id}': StoredTrace;
  'GET /api/llm/projects/{project}/traces/{id}/scores': ReceivedScorePage;
  'GET /api/llm/projects/{project}/traces/{id}/tree': TraceTree;
  'GET /api/llm/projects/{project}/users': LlmUserPage;
  'GET /api/llm/projects/{project}/users/{user}': LlmUserDetail;
  'GET /api/llm/traces/{id}': TraceWithProject;
  'POST /api/llmconfig': AssistantSettings;
  'POST /api/llmtest': AssistantTestResult;
  'GET /api/logs': LogLines;
  'GET /api/logwatch': LogWatchConfig;
  'POST /api/logwatch/test': LogWatchTest;
  'POST /api/logwatchconfig': LogWatchConfig;
  'GET /api/me': CurrentUser;
  'GET /api/monitor': HostMonitor;
  'POST /api/monitor': HostMonitor;
  'GET /api/net': ListeningPorts;
  'GET /api/netio': NetworkIo;
  'GET /api/oldfiles': StorageScan;
  'GET /api/overview': HostOverview;
  'POST /api/perchrestart': SelfUpdateRestart;
  'GET /api/perchupdate': SelfUpdateStatus;
  'POST /api/perchupdate': SelfUpdateStatus;
  'GET /api/pgcontainers': PgContainers;
  'POST /api/pkginstall': PackageJobStarted;
  'POST /api/pkgrefresh': PackageJobStarted;
  'GET /api/privilege': PrivilegeStatus;
  'POST /api/privilege/lock': PrivilegeStatus;
  'POST /api/privilege/unlock': PrivilegeStatus;
  'GET /api/processes': HostProcesses;
  'GET /api/projectrun': ProjectRunPage;
  'POST /api/projectrun': ProjectRun;
  'POST /api/projectrun/stop': ProjectRun;
  'GET /api/projectruns': ProjectRuns;
  'GET /api/projectscripts': ProjectScripts;
  'GET /api/public/health': {
    status: "OK";
    version: string;
  };
  'POST /api/public/ingestion': LangfuseIngestionResponse;
  'POST /api/public/otel/v1/logs': OtlpExportResponse;
  'POST /api/public/otel/v1/traces': OtlpExportResponse;
  'POST /api/public/v2/prompts': LangfusePrompt;
  'GET /api/public/v2/prompts/{name}': LangfusePrompt;
  'GET /api/readfile': TextFile;
  'GET /api/search': StorageScan;
  'GET /api/security': SecurityOverview;
  'POST /api/serviceaction': UnitActionResult;
  'GET /api/services': SystemUnits;
  'GET /api/sessions': DashboardSessionList;
  'DELETE /api/sessions': EndedSessions;
  'DELETE /api/sessions/{id}': EndedSessions;
  'POST /api/smart': SmartAnswer;
  'POST /api/sshkeygen': SshKeygenResult;
  'GET /api/sshkeys': SshKeys;
  'GET /api/storage/scans': StorageScans;
  'POST /api/storage/scans': StorageScan;
  'GET /api/storage/scans/{id}': StorageScan;
  'DELETE /api/storage/scans/{id}': StorageScan;
  'GET /api/storage/scans/{id}/folder': FolderSizes;
  'GET /api/terminal': TerminalStatus;
  'POST /api/timeraction': UnitActionResult;
  'GET /api/timers': SystemTimers;
  'GET /api/trash': TrashList;
  'POST /api/trash': TrashItem;
  'POST /api/trash/delete': TrashItem;
  'POST /api/trash/restore': TrashItem;
  'GET /api/trend': HostTrend;
  'GET /api/ui/about': About;
  'GET /api/ui/settings': DisplaySettings;
  'PUT /api/ui/settings': DisplaySettings;
  'GET /api/ui/shell': Shell;
  'POST /api/upgradeall': PackageJobStarted;
  'GET /api/users': DashboardUserList;
  'POST /api/users': CreatedUser;
  'PATCH /api/users/{id}': DashboardUserRecord;
  'POST /api/users/{id}/password': NewPassword;
  'DELETE /api/users/{id}/sessions': EndedSessions;
  'GET /api/v1/alert-events': AlertEventPage;
  'GET /api/v1/eval-results': ScoredEvalResultPage;
  'GET /api/v1/gate': GateVerdict;
  'GET /api/v1/prompt-templates': PromptTemplatePage;
  'GET /api/v1/prompt-templates/{name}/versions/{n}': PromptVersion;
  'POST /api/v1/prompts': CreatedPrompt;
  'GET /api/v1/prompts/{name}': KeptPrompt;
  'GET /api/v1/prompts/{name}/labels': PromptLabels;
  'PUT /api/v1/prompts/{name}/labels/{label}': PromptLabelChange;
  'DELETE /api/v1/prompts/{name}/labels/{label}': PromptLabelChange;
  'GET /api/v1/scores': ReceivedScorePage;
  'GET /api/v1/sessions': LlmSessionPage;
  'GET /api/v1/sessions/{session}': LlmSessionReplay;
  'GET /api/v1/stats': ProjectStats;
  'GET /api/v1/traces': TracePage;
  'GET /api/v1/traces/{id}': StoredTrace;
  'GET /api/v1/traces/{id}/tree': TraceTree;
  'GET /api/v1/users': LlmUserPage;
  'GET /api/v1/users/{user}': LlmUserDetail;
  'POST /api/writefile': TextFile;
  'POST /v1/otlp/logs': OtlpExportResponse;
  'POST /v1/otlp/traces': OtlpExportResponse;
  'POST /v1/traces': {
    accepted: number;
    rejected: number;
    sampled_out: number;
    errors: Array<{
      index?: number;
      code?: string;
      message?: string;
      path?: string;
      [key: string]: unknown;
    }>;
    ids: string[];
    [key: string]: unknown;
  };
}

/** The JSON request body of each operation that takes one. */
export interface ApiBodies {
  'POST /api/ai': AssistantChatInput;
  'POST /api/alertctl': {
    /** `clear` is perch's name for clear_history. */
    action: "start" | "stop" | "snooze" | "enable_all" | "disable_all" | "clear_history" | "clear";
    /** For snooze. */
    minutes?: 15 | 60 | 240 | 1440;
  };
  'POST /api/alerts/channels': ChannelCreate;
  'PUT /api/alerts/channels/{id}': ChannelUpdate;
  'POST /api/alerts/rules': {
    id?: string;
    name: string;
    enabled?: boolean;
    /** A registered source: llm.eval_score, llm.error_rate, gateway.p95_latency_ms, … */
    source: string;
    scope?: AlertScope;
    condition: AlertCondition;
    /** A duration (30s, 5m, 1h) or milliseconds. */
    window?: string | number;
    /** A duration (30s, 5m, 1h) or milliseconds. */
    cooldown?: string | number;
    min_samples?: number;
    /** Channel ids, or `all` (every enabled channel). */
    channels?: "all" | string[];
    notify_resolved?: boolean;
    severity?: "info" | "warning" | "critical";
    [key: string]: unknown;
  };
  'POST /api/alerts/rules/preview': {
    id?: string;
    name: string;
    enabled?: boolean;
    /** A registered source: llm.eval_score, llm.error_rate, gateway.p95_latency_ms, … */
    source: string;
    scope?: AlertScope;
    condition: AlertCondition;
    /** A duration (30s, 5m, 1h) or milliseconds. */
    window?: string | number;
    /** A duration (30s, 5m, 1h) or milliseconds. */
    cooldown?: string | number;
    min_samples?: number;
    /** Channel ids, or `all` (every enabled channel). */
    channels?: "all" | string[];
    notify_resolved?: boolean;
    severity?: "info" | "warning" | "critical";
    [key: string]: unknown;
  };
  'PUT /api/alerts/rules/{id}': {
    id?: string;
    name: string;
    enabled?: boolean;
    /** A registered source: llm.eval_score, llm.error_rate, gateway.p95_latency_ms, … */
    source: string;
    scope?: AlertScope;
    condition: AlertCondition;
    /** A duration (30s, 5m, 1h) or milliseconds. */
    window?: string | number;
    /** A duration (30s, 5m, 1h) or milliseconds. */
    cooldown?: string | number;
    min_samples?: number;
    /** Channel ids, or `all` (every enabled channel). */
    channels?: "all" | string[];
    notify_resolved?: boolean;
    severity?: "info" | "warning" | "critical";
    [key: string]: unknown;
  };
  'POST /api/backup': BackupSettings;
  'POST /api/capture': {
    /** An interface of GET /api/captures, or "any". */
    interface: string;
    /** Stop after this many packets (at most network.captures.max_packets). */
    packets: number;
    /** Stop after this long (at most network.captures.max_seconds). */
    seconds: number;
    /** A tcpdump filter expression, e.g. "tcp port 443". */
    filter?: string;
  };
  'POST /api/capturedelete': {
    /** A capture's name, as GET /api/captures lists it. */
    name: string;
  };
  'POST /api/capturestop': {
    /** A capture's name, as GET /api/captures lists it. */
    name: string;
  };
  'POST /api/clean': CleanRequest;
  'POST /api/cronsave': CronEditInput;
  'POST /api/ctraction': ContainerActionInput;
  'POST /api/customrules': HostCustomRulesInput;
  'POST /api/customtest': HostCustomTestInput;
  'POST /api/db/connections': DbConnectionInput;
  'PATCH /api/db/connections/{id}': DbConnectionChange;
  'POST /api/db/connections/{id}/query': DbQueryInput;
  'POST /api/db/connections/{id}/query.csv': DbQueryInput;
  'POST /api/dbquery': DbQueryByName;
  'POST /api/firewallrules': {
    /** Default: the tool GET /api/firewall names. */
    tool?: "ufw" | "firewalld" | "nftables";
  };
  'POST /api/fleet/peers': FleetPeerInput;
  'POST /api/fleet/tokens': FleetReadTokenInput;
  'POST /api/fleetconfig': FleetConfigInput;
  'POST /api/gateway/policy/mask-sources': {
    /** The record's matched_rules. */
    matched_rules: string[];
    fields: Array<{
      part: "header" | "response_header" | "query" | "request_body" | "response_body";
      field: string;
      span?: boolean;
    }>;
  };
  'POST /api/gateway/policy/try': {
    /** GET, POST, … */
    method: string;
    /** The request-target as the client sends it, query included. */
    path: string;
    /** Request headers; a list repeats the header. */
    headers?: Record<string, string | string[]>;
    /** Query parameters appended to the path (encoded here); a list repeats the name. */
    query?: Record<string, string | string[]>;
    /** The request body as sent. Without a Content-Type header it is sent as application/json. */
    body?: string;
    response?: {
      /** Default 200; 0 is an upstream that never answered. */
      status?: number;
      headers?: Record<string, string | string[]>;
      body?: string;
    };
  };
  'POST /api/gnome': {
    id: string;
    value: boolean | number | string;
  };
  'POST /api/health': AssistantHealthReportInput;
  'POST /api/homelayout': {
    /** null: the default layout. */
    layout: {
      /** Widget ids in grid order. */
      order: string[];
      /** Widgets removed from the grid; the gallery offers them again. */
      hidden: string[];
      /** Size by widget id; a widget without one has its default size. */
      sizes: Record<string, WidgetSize>;
    } | null;
  };
  'POST /api/http': ApiSendInput;
  'POST /api/http/export': ApiExportInput;
  'POST /api/http/flow': ApiFlowInput;
  'POST /api/http/import': ApiImportInput;
  'POST /api/httpstore': ApiStoreChange;
  'POST /api/job/cancel': {
    id: string;
  };
  'POST /api/killport': {
    /** The pid the row showed. */
    pid: number;
    /** The row's socket inode: the process must still hold it, and it must still listen. */
    inode: number;
    /** The row's start_ticks: refused when the pid now names a process started at another time. */
    start_ticks?: number;
    /** SIGKILL (Force) instead of SIGTERM (Stop). */
    force?: boolean;
    /** Through the privileged helper, for another user's process. */
    elevated?: boolean;
  };
  'POST /api/llm/projects': {
    name: string;
    settings?: {
      /** A plan of llm.plans: its limits, budget and retention apply where the project sets none of its own. */
      plan?: string;
      /** Month-to-date spend (UTC calendar month) against a cap; over the cap, ingest keeps a sample. */
      budget?: {
        /** The cap in USD. Absent: no cap. */
        monthly_usd?: number;
        /** Share of items kept once the cap is reached (0 keeps none). Default 0.1. */
        over_budget_sample_rate?: number;
      };
      /** Plan limits. */
      limits?: {
        /** Items accepted per calendar month (UTC); past it, 429. Absent: no limit. */
        items_per_month?: number;
        /** Items per request; more is 413. Default 1,000. */
        items_per_batch?: number;
        /** Request body size, compressed and decompressed; more is 413. Default 5mb, at most llm.max_body_bytes. */
        body_bytes?: string | number;
        /** Object keys and array elements in one item, at every level; an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 10,000. */
        item_keys?: number;
        /** UTF-8 bytes of all strings of one item (keys included); an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 1mb, at most the body limit. */
        item_bytes?: string | number;
      };
      /** What is redacted before anything is stored (the governance policy's governJson). */
      redact?: {
        /** JSON paths over the item ($.input.**.email, $.metadata.user.phone); their values become the marker. */
        json_fields?: string[];
        /** Detectors masked in every string of input, output and metadata. Default: all (card_number, iban, email, jwt, aws_access_key_id, private_key, bearer_token, api_key, us_ssn); [] turns them off. */
        detect?: Array<"card_number" | "iban" | "email" | "jwt" | "aws_access_key_id" | "private_key" | "bearer_token" | "api_key" | "us_ssn">;
      };
      /** Traces older than this are deleted. Default llm.defaults.retention (30d). */
      retention?: string | number;
    };
  };
  'POST /api/llm/projects/{name}/rotate-key': {
    /** How long the old keys keep working: a duration (24h, 7d) or ms. Default 0: they stop now. */
    grace?: string | number;
  };
  'PUT /api/llm/projects/{name}/settings': {
    /** A plan of llm.plans: its limits, budget and retention apply where the project sets none of its own. */
    plan?: string;
    /** Month-to-date spend (UTC calendar month) against a cap; over the cap, ingest keeps a sample. */
    budget?: {
      /** The cap in USD. Absent: no cap. */
      monthly_usd?: number;
      /** Share of items kept once the cap is reached (0 keeps none). Default 0.1. */
      over_budget_sample_rate?: number;
    };
    /** Plan limits. */
    limits?: {
      /** Items accepted per calendar month (UTC); past it, 429. Absent: no limit. */
      items_per_month?: number;
      /** Items per request; more is 413. Default 1,000. */
      items_per_batch?: number;
      /** Request body size, compressed and decompressed; more is 413. Default 5mb, at most llm.max_body_bytes. */
      body_bytes?: string | number;
      /** Object keys and array elements in one item, at every level; an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 10,000. */
      item_keys?: number;
      /** UTF-8 bytes of all strings of one item (keys included); an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 1mb, at most the body limit. */
      item_bytes?: string | number;
    };
    /** What is redacted before anything is stored (the governance policy's governJson). */
    redact?: {
      /** JSON paths over the item ($.input.**.email, $.metadata.user.phone); their values become the marker. */
      json_fields?: string[];
      /** Detectors masked in every string of input, output and metadata. Default: all (card_number, iban, email, jwt, aws_access_key_id, private_key, bearer_token, api_key, us_ssn); [] turns them off. */
      detect?: Array<"card_number" | "iban" | "email" | "jwt" | "aws_access_key_id" | "private_key" | "bearer_token" | "api_key" | "us_ssn">;
    };
    /** Traces older than this are deleted. Default llm.defaults.retention (30d). */
    retention?: string | number;
  };
  'POST /api/llm/projects/{project}/evals': {
    /** Stable id (eval_definition_id). Default on POST: a UUID. */
    id?: string;
    name: string;
    type: "llm_judge" | "semantic_similarity" | "custom_function";
    /** Share of traces evaluated, deterministic per trace id. Default 1. */
    sample_rate?: number;
    /** Only traces of this prompt template. */
    template?: string | null;
    /** With template: only these prompt versions, inclusive. */
    versions?: {
      min?: number;
      max?: number;
    } | null;
    /** A trace with no output (a failed call): `skip` (default) stores a skipped result, left out of averages; `score` evaluates it like any other. */
    on_missing_output?: "skip" | "score";
    settings: EvalSettings;
  };
  'POST /api/llm/projects/{project}/evals/test': {
    /** Stable id (eval_definition_id). Default on POST: a UUID. */
    id?: string;
    name: string;
    type: "llm_judge" | "semantic_similarity" | "custom_function";
    /** Share of traces evaluated, deterministic per trace id. Default 1. */
    sample_rate?: number;
    /** Only traces of this prompt template. */
    template?: string | null;
    /** With template: only these prompt versions, inclusive. */
    versions?: {
      min?: number;
      max?: number;
    } | null;
    /** A trace with no output (a failed call): `skip` (default) stores a skipped result, left out of averages; `score` evaluates it like any other. */
    on_missing_output?: "skip" | "score";
    settings: EvalSettings;
  };
  'PUT /api/llm/projects/{project}/evals/{id}': {
    /** Stable id (eval_definition_id). Default on POST: a UUID. */
    id?: string;
    name: string;
    type: "llm_judge" | "semantic_similarity" | "custom_function";
    /** Share of traces evaluated, deterministic per trace id. Default 1. */
    sample_rate?: number;
    /** Only traces of this prompt template. */
    template?: string | null;
    /** With template: only these prompt versions, inclusive. */
    versions?: {
      min?: number;
      max?: number;
    } | null;
    /** A trace with no output (a failed call): `skip` (default) stores a skipped result, left out of averages; `score` evaluates it like any other. */
    on_missing_output?: "skip" | "score";
    settings: EvalSettings;
  };
  'POST /api/llm/projects/{project}/evals/{id}/rerun': {
    /** How many of the newest traces. */
    last?: number;
    /** Default: the definition's template (all traces when it has none). */
    template?: string;
  };
  'PUT /api/llm/projects/{project}/golden-sets/{template}': {
    outputs: string[];
  };
  'POST /api/llm/projects/{project}/prompts': {
    name: string;
    type?: "text" | "chat";
    /** The text (at most 32,768 characters), or for `type: "chat"` an array of { role, content } messages and { type: "placeholder", name }. */
    prompt: unknown;
    /** Any JSON (model, temperature…), at most 65,536 characters. */
    config?: unknown;
    labels?: string[];
    commit_message?: string | null;
  };
  'PUT /api/llm/projects/{project}/prompts/{name}/labels/{label}': {
    version: number;
  };
  'POST /api/llmconfig': AssistantSettingsInput;
  'POST /api/llmtest': Record<string, never>;
  'POST /api/logwatch/test': {
    rule: LogWatcher;
  };
  'POST /api/logwatchconfig': LogWatcherConfig;
  'POST /api/monitor': HostMonitorSettings;
  'POST /api/perchrestart': Record<string, never>;
  'POST /api/perchupdate': {
    action: "check" | "update";
  };
  'POST /api/pkginstall': {
    mgr: "apt" | "dnf" | "pacman" | "zypper" | "snap" | "flatpak";
    /** The package's name as the list shows it. */
    pkg: string;
    action: "upgrade" | "remove";
  };
  'POST /api/pkgrefresh': {
    mgr: "apt" | "dnf" | "pacman" | "zypper" | "snap" | "flatpak";
  };
  'POST /api/privilege/unlock': {
    password: string;
  };
  'POST /api/projectrun': ProjectRunInput;
  'POST /api/projectrun/stop': {
    id: string;
  };
  'POST /api/public/v2/prompts': {
    name: string;
    type?: "text" | "chat";
    prompt: unknown;
    config?: unknown;
    labels?: string[];
    tags?: string[];
    commitMessage?: string | null;
    isActive?: boolean;
    [key: string]: unknown;
  };
  'POST /api/serviceaction': UnitActionInput;
  'POST /api/smart': SmartRequest;
  'POST /api/sshkeygen': SshKeygenInput;
  'POST /api/storage/scans': StorageScanRequest;
  'POST /api/timeraction': TimerActionInput;
  'POST /api/trash': TrashRequest;
  'POST /api/trash/delete': TrashRestoreRequest;
  'POST /api/trash/restore': TrashRestoreRequest;
  'PUT /api/ui/settings': DisplaySettings;
  'POST /api/upgradeall': {
    mgr: "apt" | "dnf" | "pacman" | "zypper" | "snap" | "flatpak";
  };
  'POST /api/users': {
    email: string;
    name?: string;
    source: "local" | "oidc";
    /** The role on the instance and in every project; null: none. */
    instance_role?: "viewer" | "member" | "admin" | "owner" | null;
    /** Role per LLM project; it can only raise the instance role there. */
    projects?: Record<string, "viewer" | "member" | "admin">;
  };
  'PATCH /api/users/{id}': {
    /** The role on the instance and in every project; null: none. */
    instance_role?: "viewer" | "member" | "admin" | "owner" | null;
    /** Role per LLM project; it can only raise the instance role there. */
    projects?: Record<string, "viewer" | "member" | "admin" | null>;
    disabled?: boolean;
  };
  'POST /api/v1/prompts': {
    name: string;
    type?: "text" | "chat";
    /** The text (at most 32,768 characters), or for `type: "chat"` an array of { role, content } messages and { type: "placeholder", name }. */
    prompt: unknown;
    /** Any JSON (model, temperature…), at most 65,536 characters. */
    config?: unknown;
    labels?: string[];
    commit_message?: string | null;
  };
  'PUT /api/v1/prompts/{name}/labels/{label}': {
    version: number;
  };
  'POST /api/writefile': TextFileWrite;
}

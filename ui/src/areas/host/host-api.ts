// The host monitor's API as the Host pages read it: the generated server shapes (ui/src/data/api.gen.ts) under the
// names the pages use, and what only the pages need.
import type {
  HealthScore, HostBuiltinRule, HostCaps, HostCustomRule, HostCustomRuleInput, HostCustomTest, HostLive, HostMonitor, HostOverview, HostProcesses,
  HostTrend, KernelTunables, LogLine, LogLines, LogWatchConfig, LogWatcher, LogWatcherView, LogWatchTest, SecurityOverview,
} from '../../data/api.gen.js';


/** The stream topic of the 2 s live sample (GET /api/ui/stream), sent only while a page subscribes. */
export const LIVE_TOPIC = 'host.live';

export type LiveReading = HostLive;
export type MountRow = LiveReading['disks'][number];
export type InterfaceRow = LiveReading['network'][number];
export type SensorRow = LiveReading['temperatures'][number];
export type GpuRow = LiveReading['gpus'][number];
export type BatteryRow = LiveReading['batteries'][number];
export type MachineSummary = HostOverview;
export type MachineCaps = HostCaps;

export type HealthReport = HealthScore;

export type SecurityReport = SecurityOverview;
export type FailedLoginRow = NonNullable<SecurityReport['failed_logins']>['sources'][number];

export type TrendAnswer = HostTrend;

export type ProcessList = HostProcesses;
export type ProcessRow = ProcessList['processes'][number];

export type TunableList = KernelTunables;
export type TunableRow = TunableList['tunables'][number];

export type LogAnswer = LogLines;
export type LogRow = LogLine;

export type MonitorAnswer = HostMonitor;
export type BuiltinKey = keyof MonitorAnswer['builtins'];
export type BuiltinView = HostBuiltinRule;
export type CustomRuleView = HostCustomRule;
export type CustomKind = CustomRuleView['kind'];
/** What POST /api/customrules and /api/customtest take for one rule. */
export type CustomRuleInput = HostCustomRuleInput;
/** A rule being written in the form: one of the kinds the list shows (the input also takes perch's `path`). */
export type CustomDraft = Omit<CustomRuleInput, 'kind'> & { kind: CustomKind };
export type CustomTestAnswer = HostCustomTest;

export type WatcherList = LogWatchConfig;
export type WatcherRow = LogWatcherView;
/** One watcher as POST /api/logwatchconfig and /api/logwatch/test take it. */
export type WatcherInput = LogWatcher;
export type WatcherTestAnswer = LogWatchTest;

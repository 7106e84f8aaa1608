// The system tools' API (plugin systools) as the Services, Scheduled tasks and SSH keys pages read it: the generated
// server shapes (ui/src/data/api.gen.ts) under the names the pages use.
import type {
  CronLine, Crontab, CronScheduleReading, SshKey, SshKeys, SystemTimer, SystemTimers, SystemUnit, SystemUnits, UnitActionResult,
} from '../../data/api.gen.js';

export type UnitList = SystemUnits;
export type UnitRow = SystemUnit;
export type TimerList = SystemTimers;
export type TimerRow = SystemTimer;
export type UnitActionAnswer = UnitActionResult;
export type UnitScope = UnitList['scope'];
export type CrontabView = Crontab;
export type CrontabLine = CronLine;
export type ScheduleReading = CronScheduleReading;
export type SshFolderView = SshKeys;
export type SshKeyRow = SshKey;
export type AuthorizedRow = SshKeys['authorized_keys']['lines'][number];

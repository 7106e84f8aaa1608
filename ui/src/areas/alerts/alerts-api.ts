// The alerts and channels API as the dashboard reads it: the generated server shapes (ui/src/data/api.gen.ts) under
// the names the pages use, and what only the page needs.
import type {
  AlertCondition, AlertEvent, AlertEventDelivery, AlertingState, AlertRule, AlertRulePreview, AlertScope, AlertSourceInfo,
  ApiBodies, ChannelTestResult, ChannelView,
} from '../../data/api.gen.js';

export type { AlertEvent, AlertingState, AlertRule, ChannelTestResult };
export type Severity = AlertRule['severity'];
export type AlertingMode = AlertingState['state'];
export type ConditionType = AlertCondition['type'];
export type Condition = AlertCondition;
export type Scope = AlertScope;
export type AlertSource = AlertSourceInfo;
export type RulePreview = AlertRulePreview;
export type AlertDelivery = AlertEventDelivery;
export type DeliveryState = AlertEventDelivery['state'];
export type Channel = ChannelView;
export type ChannelType = ChannelView['type'];
/** What POST/PUT /api/alerts/rules and the preview take. */
export type RuleInput = ApiBodies['POST /api/alerts/rules'];
export type AlertctlAction = ApiBodies['POST /api/alertctl']['action'];

/** The snooze lengths the server takes, in minutes. */
export const SNOOZE_MINUTES = [15, 60, 240, 1440] as const;

export interface List<T> { data: T[] }

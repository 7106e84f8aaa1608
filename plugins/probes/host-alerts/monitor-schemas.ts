import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { BUILTIN_KEYS } from './builtin-rules.js';
import { CHECK_KINDS } from './host-sources.js';
import { MAX_CUSTOM_RULES } from './custom-rules.js';

const num = { type: 'number' };
const nullableNumber = { type: ['number', 'null'] };
const nullableText = { type: ['string', 'null'] };
const iso = { type: 'string', format: 'date-time' };
const status = { enum: ['ok', 'firing'], description: 'At its last evaluation.' };

const builtin = closedObject({
  on: { type: 'boolean' }, th: num, label: { type: 'string' }, unit: { type: 'string' }, cooldown_ms: { type: 'integer' },
  rule_id: { type: 'string' }, status, last_value: nullableNumber, last_error: nullableText,
}, { title: 'HostBuiltinRule' });

export const customRuleView = closedObject({
  id: { type: 'string' }, name: { type: 'string' }, kind: { enum: [...CHECK_KINDS] }, target: { type: 'string' },
  value: { ...nullableNumber, description: 'folder: GB; backup: days; null for the others.' }, enabled: { type: 'boolean' },
  user: { type: 'boolean', description: 'unit: a user unit.' }, cooldown_ms: { type: 'integer' }, status, last_value: nullableNumber,
  last_error: { ...nullableText, description: 'Why the check could not look (no systemd, a missing path).' },
}, { title: 'HostCustomRule' });

const recentAlert = closedObject({
  id: { type: 'string' }, rule_id: { type: 'string' }, rule_name: { type: 'string' }, severity: { enum: ['info', 'warning', 'critical'] },
  status: { enum: ['firing', 'resolved'] }, value: nullableNumber, summary: { type: 'string' }, fired_at: iso,
  resolved_at: { type: ['string', 'null'], format: 'date-time' }, suppressed: { enum: ['cooldown', 'flapping', null] },
}, { title: 'HostRecentAlert' });

const latest = {
  oneOf: [{ type: 'null' }, closedObject({
    t: iso, cpu: nullableNumber, mem: nullableNumber, swap: nullableNumber, temp: nullableNumber, disk: nullableNumber, battery: nullableNumber,
  }, { title: 'HostLatestSample' })],
  description: 'The newest minute sample; null before the first.',
};

const series = { type: 'array', items: nullableNumber };
export const HISTORY_METRICS = ['cpu', 'mem', 'swap', 'temp', 'disk', 'battery'] as const;
const history = closedObject({
  t: { type: 'array', items: { type: 'integer' }, description: 'Epoch ms of each minute sample, oldest first.' },
  ...Object.fromEntries(HISTORY_METRICS.map((m) => [m, series])),
}, { title: 'HostMonitorHistory', description: 'The last 24 hours of minute samples (at most 1,440), one array per metric.' });

export const monitorResponse: JsonSchema = closedObject({
  alerting: closedObject({ state: { enum: ['on', 'stopped', 'snoozed'] }, until: { type: ['string', 'null'], format: 'date-time' } }, { title: 'HostAlertingState' }),
  builtins: closedObject(Object.fromEntries(BUILTIN_KEYS.map((k) => [k, builtin])), { title: 'HostBuiltinRules' }),
  custom: { type: 'array', items: customRuleView, maxItems: MAX_CUSTOM_RULES },
  firing: { type: 'integer', minimum: 0, description: 'Host rules firing now.' },
  recent: { type: 'array', items: recentAlert, maxItems: 10, description: 'The latest host alerts, newest first.' },
  latest,
  history,
}, { title: 'HostMonitor', optional: ['history'], description: 'Host rules, the alerting state, recent host alerts and the newest sample; with the 24-hour history unless `brief=1`.' });

const builtinInput = closedObject({
  on: { type: 'boolean' }, th: num,
  cooldown_ms: { type: 'integer', minimum: 0, maximum: 7 * 86_400_000, description: 'Between two notices of the rule; default 600,000 (perch\'s 600 s).' },
}, { title: 'HostBuiltinInput', optional: ['on', 'th', 'cooldown_ms'] });

export const monitorBody: JsonSchema = closedObject(Object.fromEntries(BUILTIN_KEYS.map((k) => [k, builtinInput])), {
  title: 'HostMonitorSettings', optional: [...BUILTIN_KEYS], description: 'perch\'s shape: `{cpu|mem|temp|disk|battery: {on, th}}`; keys left out stay as they are.',
});

export const customRuleInput: JsonSchema = closedObject({
  name: { type: 'string', minLength: 1, maxLength: 60 },
  kind: { enum: [...CHECK_KINDS, 'path'], description: '`path` is perch\'s name for `folder`.' },
  target: { type: 'string', minLength: 1, maxLength: 1000, description: 'unit: its name; port: the number; process: a name; folder and backup: an absolute path.' },
  value: { type: ['number', 'null'], description: 'folder: GB past which it fires; backup: days (default 7); null or absent for the others.' },
  enabled: { type: 'boolean' },
  user: { type: 'boolean', description: 'unit: a user unit (systemctl --user).' },
  cooldown_ms: { type: 'integer', minimum: 0, maximum: 7 * 86_400_000 },
  id: { type: 'string', maxLength: 100, description: 'Ignored: ids come from what a rule watches. Accepted so a listed rule can be sent back as it is.' },
}, { title: 'HostCustomRuleInput', optional: ['value', 'enabled', 'user', 'cooldown_ms', 'id'] });

export const customTestResponse: JsonSchema = closedObject({
  ok: { type: 'boolean', description: 'False when the check could not look (the reason is in `detail`).' },
  value: nullableNumber,
  detail: { type: 'string', description: 'What the check sees now, in words.' },
  would_fire: { type: ['boolean', 'null'], description: 'Whether the rule would fire now; null when the check could not look.' },
  elapsed_ms: { type: 'integer' },
}, { title: 'HostCustomTest' });

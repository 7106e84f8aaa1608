import { ALERT_EVENT_SCHEMA, HttpError, httpError, type ChannelsService, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { ALERTCTL_ACTIONS, nextState, SNOOZE_MINUTES, type AlertctlAction, type AlertingStateStore } from './alerting-state.js';
import { conditionSchema, ruleSchema, scopeSchema } from './config-schema.js';
import type { AlertEngine } from './engine.js';
import { AlertsErrors, badRule } from './errors.js';
import { eventViews } from './event-views.js';
import { previewRule } from './preview.js';
import { ruleProblem } from './rule-check.js';
import { normaliseRule, type RuleStore } from './rule-store.js';
import type { StoredRuleState } from './rule-state-store.js';
import type { SourceRegistry } from './source-registry.js';
import type { AlertRule, RuleInput } from './types.js';

export interface AlertRouteDeps {
  rules: RuleStore;
  control: AlertingStateStore;
  engine: AlertEngine;
  sources: SourceRegistry;
  channels(): ChannelsService | undefined;
  now(): number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const obj = (title: string, properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  title, type: 'object', additionalProperties: false, required: Object.keys(properties), properties, ...(description ? { description } : {}),
});
const nullableNumber = { type: ['number', 'null'] };
const nullableText = { type: ['string', 'null'] };
const nullableIso = { type: ['string', 'null'], format: 'date-time' };

const ruleView = obj('AlertRule', {
  id: { type: 'string' }, name: { type: 'string' }, enabled: { type: 'boolean' }, source: { type: 'string' }, scope: scopeSchema,
  condition: conditionSchema, window_ms: { type: 'integer' }, cooldown_ms: { type: 'integer' }, min_samples: { type: 'integer' },
  channels: { oneOf: [{ const: 'all' }, { type: 'array', items: { type: 'string' } }] }, notify_resolved: { type: 'boolean' },
  severity: { enum: ['info', 'warning', 'critical'] }, origin: { enum: ['config', 'store', 'plugin'], description: 'config: the config file owns it; plugin: a plugin manages it (the host monitor: /api/monitor); store: the dashboard\'s.' }, created_at: { type: 'string' }, updated_at: { type: 'string' },
  state: obj('AlertRuleState', {
    status: { enum: ['ok', 'firing'] }, flapping: { type: 'boolean' }, last_value: nullableNumber, last_samples: nullableNumber,
    last_note: nullableText, last_error: nullableText, evaluated_at: nullableIso,
  }, 'What the last evaluation saw.'),
});

const alertingView = obj('AlertingState', {
  state: { enum: ['on', 'stopped', 'snoozed'] },
  until: { ...nullableIso, description: 'When a snooze ends.' },
  changed_at: nullableIso,
  rules: obj('AlertRuleCounts', { total: { type: 'integer' }, enabled: { type: 'integer' } }),
  firing: { type: 'integer', description: 'Events firing now.' },
});

function describe(rule: AlertRule, state: StoredRuleState | undefined) {
  return {
    id: rule.id, name: rule.name, enabled: rule.enabled, source: rule.source, scope: rule.scope, condition: rule.condition,
    window_ms: rule.window_ms, cooldown_ms: rule.cooldown_ms, min_samples: rule.min_samples, channels: rule.channels,
    notify_resolved: rule.notify_resolved, severity: rule.severity, origin: rule.origin, created_at: iso(rule.created_at)!, updated_at: iso(rule.updated_at)!,
    state: {
      status: state?.status ?? 'ok', flapping: state?.flapping ?? false, last_value: state?.last.value ?? null, last_samples: state?.last.samples ?? null,
      last_note: state?.last.note ?? null, last_error: state?.last.error ?? null, evaluated_at: iso(state?.last.at ?? null),
    },
  };
}

/**
 * The dashboard's alerting API, behind the dashboard session: rules (CRUD and a preview against stored data), the
 * registered sources, events with their delivery state, and the alerting state (`/api/alertctl`).
 */
export function registerAlertRoutes(http: HttpRoutes, deps: AlertRouteDeps): void {
  const { rules, control, engine, sources } = deps;
  const check = (input: RuleInput) => {
    const problem = ruleProblem(input, sources);
    if (problem) throw badRule(problem);
  };

  http.route({
    method: 'GET', path: '/api/alerts/sources', tags: ['alerts'], summary: 'The metrics rules can watch, with the scope keys each takes',
    response: obj('AlertSourceList', {
      data: {
        type: 'array',
        items: obj('AlertSourceInfo', {
          id: { type: 'string' }, summary: { type: 'string' }, unit: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } },
          required_scopes: { type: 'array', items: { type: 'string' } }, budget: { type: 'boolean' }, plugin: { type: 'string' },
        }),
      },
    }),
    handler: () => ({ data: sources.list() }),
  });

  http.route({
    method: 'GET', path: '/api/alerts/rules', tags: ['alerts'], summary: 'Every alert rule with what its last evaluation saw',
    response: obj('AlertRuleList', { data: { type: 'array', items: ruleView } }),
    async handler() {
      const [list, states] = await Promise.all([rules.list(), engine.states.all()]);
      return { data: list.map((r) => describe(r, states.get(r.id))) };
    },
  });

  http.route({
    method: 'GET', path: '/api/alerts/rules/:id', tags: ['alerts'], summary: 'One alert rule', response: ruleView,
    async handler(ctx) {
      const rule = await rules.mustGet(ctx.params.id);
      return describe(rule, await engine.states.get(rule.id));
    },
  });

  http.route({
    method: 'POST', path: '/api/alerts/rules', status: 201, tags: ['alerts'], summary: 'Create an alert rule', body: ruleSchema, response: ruleView,
    async handler(ctx) {
      const input = ctx.request.body as RuleInput;
      check(input);
      return describe(await rules.create(input), undefined);
    },
  });

  http.route({
    method: 'PUT', path: '/api/alerts/rules/:id', tags: ['alerts'], summary: 'Replace an alert rule (not one the config file declares)', body: ruleSchema, response: ruleView,
    async handler(ctx) {
      const input = ctx.request.body as RuleInput;
      if (input.id !== undefined && input.id !== ctx.params.id) throw badRule(`id: the body says "${input.id}" but the path says "${ctx.params.id}"; ids do not change`);
      check(input);
      const rule = await rules.replace(ctx.params.id, input);
      return describe(rule, await engine.states.get(rule.id));
    },
  });

  http.route({
    method: 'DELETE', path: '/api/alerts/rules/:id', tags: ['alerts'], summary: 'Delete an alert rule (not one the config file declares); its events stay in the history',
    response: obj('AlertRuleDeleted', { deleted: { type: 'string' } }),
    async handler(ctx) {
      await rules.delete(ctx.params.id);
      await engine.states.deleteRule(ctx.params.id);
      return { deleted: ctx.params.id };
    },
  });

  http.route({
    method: 'POST', path: '/api/alerts/rules/preview', tags: ['alerts'],
    summary: 'Would this rule have fired in the last 24 h? The rule judged at the end of each of its windows, from stored data, without saving it',
    body: ruleSchema,
    response: obj('AlertRulePreview', {
      would_fire: { type: 'boolean' },
      firings: { type: 'array', items: { type: 'string', format: 'date-time' }, description: 'When it would have started firing.' },
      points: {
        type: 'array',
        items: obj('AlertPreviewPoint', { at: { type: 'string', format: 'date-time' }, value: nullableNumber, samples: { type: 'integer' }, breach: { type: ['boolean', 'null'] } }),
      },
      note: { type: 'string' },
    }),
    async handler(ctx) {
      const input = ctx.request.body as RuleInput;
      check(input);
      try {
        return await previewRule(normaliseRule(input, 'store', deps.now()), sources, engine, deps.now());
      } catch (err) {
        if (err instanceof HttpError) throw err;
        throw badRule(`the preview could not read the source: ${(err as Error).message}`);
      }
    },
  });

  http.route({
    method: 'GET', path: '/api/alerts/events', tags: ['alerts'], summary: 'Alert events, newest first, with the delivery state of each per channel',
    query: {
      type: 'object',
      properties: {
        status: { enum: ['firing', 'resolved'] }, rule_id: { type: 'string', maxLength: 200 },
        since: { type: 'integer', minimum: 0, description: 'Epoch ms.' },
        limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 }, offset: { type: 'integer', minimum: 0, maximum: 10_000, default: 0 },
      },
    },
    response: obj('AlertEventList', { data: { type: 'array', items: ALERT_EVENT_SCHEMA }, limit: { type: 'integer' }, offset: { type: 'integer' } }),
    async handler(ctx) {
      const q = ctx.query;
      const page = { limit: Number(q.limit ?? 50), offset: Number(q.offset ?? 0) };
      const list = await engine.events.list({
        ...page, ...(q.status ? { status: q.status as 'firing' | 'resolved' } : {}), ...(q.since !== undefined ? { since: Number(q.since) } : {}),
        ...(typeof q.rule_id === 'string' ? { rule_id: q.rule_id } : {}),
      });
      return { data: await eventViews(list, deps.channels()), ...page };
    },
  });

  const alerting = async () => {
    const [state, list, firing] = await Promise.all([control.get(), rules.list(), engine.events.countFiring()]);
    return {
      state: state.state, until: iso(state.until), changed_at: state.changed_at ? iso(state.changed_at) : null,
      rules: { total: list.length, enabled: list.filter((r) => r.enabled).length }, firing,
    };
  };

  http.route({
    method: 'GET', path: '/api/alertctl', tags: ['alerts'], summary: 'The alerting state: on, stopped, or snoozed until a time; with rule and firing counts',
    response: alertingView,
    handler: alerting,
  });

  http.route({
    method: 'POST', path: '/api/alertctl', tags: ['alerts'],
    summary: 'Start, stop or snooze alerting (15, 60, 240 or 1440 minutes); enable or disable every rule; clear the history',
    body: {
      type: 'object', additionalProperties: false, required: ['action'],
      properties: { action: { enum: [...ALERTCTL_ACTIONS, 'clear'], description: '`clear` is perch\'s name for clear_history.' }, minutes: { enum: [...SNOOZE_MINUTES], description: 'For snooze.' } },
    },
    response: alertingView,
    async handler(ctx) {
      const { action: asked, minutes } = ctx.request.body as { action: AlertctlAction | 'clear'; minutes?: number };
      const action: AlertctlAction = asked === 'clear' ? 'clear_history' : asked;
      if (action === 'enable_all' || action === 'disable_all') await rules.setAllEnabled(action === 'enable_all');
      else if (action === 'clear_history') {
        await engine.events.clear();
        await engine.states.resetAll();
      } else {
        if (action === 'snooze' && minutes === undefined) throw httpError(AlertsErrors.ALERTCTL, `minutes: a snooze lasts ${SNOOZE_MINUTES.join(', ')} minutes`);
        await control.set(nextState(await control.get(), action, deps.now(), minutes));
      }
      return alerting();
    },
  });
}

import { closedObject, httpError, type AlertEventView, type AlertsService, type HttpRoutes, type Queryable } from '@vigil/plugin-sdk';
import { DAY_MS } from '../history/retention.js';
import { readSamples } from '../history/sample-store.js';
import { BUILTIN_KEYS, BUILTIN_PREFIX, BUILTINS, builtinRule, builtinView, type BuiltinKey } from './builtin-rules.js';
import { CheckUnavailable } from './checks/check.js';
import { CUSTOM_PREFIX, customRuleProblem, customToManaged, managedToCustom, MAX_CUSTOM_RULES, type CustomRuleInput } from './custom-rules.js';
import { badHostRule, HostRulesErrors, noAlerts } from './errors.js';
import { lookAt } from './host-sources.js';
import { customRuleInput, customRuleView, customTestResponse, HISTORY_METRICS, monitorBody, monitorResponse } from './monitor-schemas.js';

export interface MonitorDeps {
  alerts(): AlertsService | undefined;
  store: Queryable;
  root: string;
  now(): number;
}

const MAX_TESTS_AT_ONCE = 2;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Host alerts in the monitor's answer: only what a card shows (the delivery detail is on the Alerts page). */
const slim = (e: AlertEventView) => ({
  id: e.id, rule_id: e.rule_id, rule_name: e.rule_name, severity: e.severity, status: e.status, value: e.value, summary: e.summary,
  fired_at: e.fired_at, resolved_at: e.resolved_at, suppressed: e.suppressed,
});

/**
 * perch's monitor endpoints: `GET /api/monitor` (rules, alerting state, recent host alerts, the newest sample and,
 * without `brief=1`, the 24-hour history), `POST /api/monitor` (the five thresholds), `POST /api/customrules`
 * (the whole list, at most 24) and `POST /api/customtest` (what a rule's check sees now, without saving it).
 */
export function registerMonitorRoutes(http: HttpRoutes, deps: MonitorDeps): void {
  const alerts = () => deps.alerts() ?? (() => { throw noAlerts(); })();

  const monitor = async (brief: boolean) => {
    const a = alerts();
    const now = deps.now();
    const [rules, state, recent, firing, [last]] = await Promise.all([
      a.managedRules('host.'), a.alerting(), a.eventsBySource({ sourcePrefix: 'host.', limit: 10 }),
      a.eventsBySource({ sourcePrefix: 'host.', status: 'firing', limit: 200 }),
      deps.store.query<Record<string, number | null>>('SELECT t, cpu, mem, swap, temp, disk, battery FROM probes_samples ORDER BY t DESC LIMIT 1'),
    ]);
    const num = (v: unknown) => (v == null ? null : Number(v));
    const out: Record<string, unknown> = {
      alerting: { state: state.state, until: iso(state.until) },
      builtins: builtinView(rules.filter((r) => r.id.startsWith(BUILTIN_PREFIX))),
      custom: rules.filter((r) => r.id.startsWith(CUSTOM_PREFIX)).map(managedToCustom),
      firing: firing.length,
      recent: recent.map(slim),
      latest: last ? { t: iso(Number(last.t)), cpu: num(last.cpu), mem: num(last.mem), swap: num(last.swap), temp: num(last.temp), disk: num(last.disk), battery: num(last.battery) } : null,
    };
    if (!brief) {
      // At most 1,440 rows: the samples table keeps 24 hours.
      const samples = await readSamples(deps.store, now - DAY_MS, now + 1);
      out.history = { t: samples.map((s) => s.t), ...Object.fromEntries(HISTORY_METRICS.map((m) => [m, samples.map((s) => s[m])])) };
    }
    return out;
  };

  http.route({
    method: 'GET', path: '/api/monitor', tags: ['host'],
    summary: 'Host rules (the five thresholds and the custom rules) with their state, the alerting state, recent host alerts, the newest sample and the 24-hour history; `brief=1` leaves the history out',
    query: { type: 'object', additionalProperties: false, properties: { brief: { enum: ['0', '1'], description: '1: without the 1,440 samples (a few kilobytes).' } } },
    response: monitorResponse,
    handler: (ctx) => monitor(ctx.query.brief === '1'),
  });

  http.route({
    method: 'POST', path: '/api/monitor', tags: ['host'],
    summary: 'Switch the five host thresholds on or off, change their thresholds and cooldowns (perch\'s `{cpu|mem|temp|disk|battery: {on, th}}`); answers as `?brief=1`',
    body: monitorBody, response: monitorResponse,
    async handler(ctx) {
      const a = alerts();
      const body = ctx.request.body as Partial<Record<BuiltinKey, { on?: boolean; th?: number; cooldown_ms?: number }>>;
      for (const k of BUILTIN_KEYS) {
        const th = body[k]?.th;
        const { min, max, unit } = BUILTINS[k];
        if (th !== undefined && !(th >= min && th <= max)) throw badHostRule(`${k}.th: between ${min} and ${max} ${unit}, not ${th}`);
      }
      const current = builtinView(await a.managedRules(BUILTIN_PREFIX));
      await a.replaceManagedRules(BUILTIN_PREFIX, BUILTIN_KEYS.map((k) => builtinRule(k, {
        on: body[k]?.on ?? current[k].on, th: body[k]?.th ?? current[k].th, cooldown_ms: body[k]?.cooldown_ms ?? current[k].cooldown_ms,
      })));
      return monitor(true);
    },
  });

  const customList = closedObject({ rules: { type: 'array', items: customRuleView, maxItems: MAX_CUSTOM_RULES } }, { title: 'HostCustomRules' });

  http.route({
    method: 'GET', path: '/api/customrules', tags: ['host'], summary: 'The custom host rules (unit, port, process, folder, backup) with their state',
    response: customList,
    handler: async () => ({ rules: (await alerts().managedRules(CUSTOM_PREFIX)).map(managedToCustom) }),
  });

  http.route({
    method: 'POST', path: '/api/customrules', tags: ['host'],
    summary: `Replace the custom host rules with this list (at most ${MAX_CUSTOM_RULES}); a rule that watches what it watched before keeps its state and cooldown`,
    body: closedObject({ rules: { type: 'array', items: customRuleInput, maxItems: 1000 } }, { title: 'HostCustomRulesInput' }),
    response: customList,
    async handler(ctx) {
      const a = alerts();
      const { rules } = ctx.request.body as { rules: CustomRuleInput[] };
      // The whole list is replaced in one transaction, so the cap holds however many saves run at once.
      if (rules.length > MAX_CUSTOM_RULES) throw httpError(HostRulesErrors.TOO_MANY, `${rules.length} custom rules: at most ${MAX_CUSTOM_RULES}`);
      const seen = new Map<string, number>();
      const managed = rules.map((r, i) => {
        const problem = customRuleProblem(r);
        if (problem) throw badHostRule(`rules[${i}].${problem}`);
        const m = customToManaged(r);
        if (seen.has(m.id)) throw badHostRule(`rules[${i}]: watches the same as rules[${seen.get(m.id)}]`);
        seen.set(m.id, i);
        return m;
      });
      await a.replaceManagedRules(CUSTOM_PREFIX, managed);
      return { rules: (await a.managedRules(CUSTOM_PREFIX)).map(managedToCustom) };
    },
  });

  // A test may walk a folder for 5 s on the thread pool: two at once, so tests cannot crowd out the minute checks.
  let testing = 0;
  http.route({
    method: 'POST', path: '/api/customtest', tags: ['host'],
    summary: 'What a custom rule\'s check sees now, and whether the rule would fire, without saving it',
    body: closedObject({ rule: customRuleInput }, { title: 'HostCustomTestInput' }), response: customTestResponse,
    async handler(ctx) {
      const { rule } = ctx.request.body as { rule: CustomRuleInput };
      const problem = customRuleProblem(rule);
      if (problem) throw badHostRule(`rule.${problem}`);
      const m = customToManaged(rule);
      const kind = rule.kind === 'path' ? 'folder' : rule.kind;
      if (testing >= MAX_TESTS_AT_ONCE) throw httpError(HostRulesErrors.TEST_BUSY, `${testing} tests are looking already: try again in a few seconds`);
      testing++;
      const started = Date.now();
      try {
        const look = await lookAt(deps.root, kind, rule.target, rule.user === true, deps.now());
        const c = m.condition;
        return { ok: true, value: look.value, detail: look.detail, would_fire: c.type === 'lt' ? look.value < c.threshold : look.value > c.threshold, elapsed_ms: Date.now() - started };
      } catch (err) {
        if (!(err instanceof CheckUnavailable)) throw err;
        return { ok: false, value: null, detail: err.message, would_fire: null, elapsed_ms: Date.now() - started };
      } finally {
        testing--;
      }
    },
  });
}

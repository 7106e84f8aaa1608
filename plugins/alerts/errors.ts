import { defineErrorCodes, HttpError, httpError } from '@vigil/plugin-sdk';

/** Codes of the alerts plugin: its dashboard API and its rules. A code answered over HTTP has its status in its entry. */
export const AlertsErrors = defineErrorCodes('ALERTS', {
  RULE: {
    status: 400,
    meaning: 'A rule the schema accepts but that cannot work: an unknown source, a scope key the source does not take or a missing one it needs, a budget rule on a source without budgets.',
    action: 'Fix the key the message names; `GET /api/alerts/sources` lists each source with its scope keys.',
  },
  RULE_NOT_FOUND: {
    status: 404,
    meaning: 'There is no alert rule with this id.',
    action: 'List the rules (`GET /api/alerts/rules`) for their ids.',
  },
  RULE_EXISTS: {
    status: 409,
    meaning: 'An alert rule with this id exists already.',
    action: 'Choose another id, or change the rule with PUT.',
  },
  RULES_FULL: {
    status: 409,
    meaning: 'The store holds 1,000 alert rules, the most it keeps (config-declared rules count too): every rule is evaluated each minute, so the cap bounds a tick.',
    action: 'Delete rules you no longer need, or widen one rule\'s scope instead of making one per item.',
  },
  RULE_FROM_CONFIG: {
    status: 409,
    meaning: 'The rule is declared in the config file (`alerts.rules`), which wins: the API cannot change or delete it.',
    action: 'Edit the config file and reload (SIGHUP), or remove the rule from the file to manage it here.',
  },
  RULE_MANAGED: {
    status: 409,
    meaning: 'The rule is managed by a plugin (the host monitor\'s thresholds and custom rules): the alerts API cannot change or delete it.',
    action: 'Change it where its plugin says: host rules at `POST /api/monitor` and `POST /api/customrules`, or on the Host page.',
  },
  ALERTCTL: {
    status: 400,
    meaning: 'An alerting-state action that cannot be done: a snooze without minutes, or minutes other than 15, 60, 240 or 1440.',
    action: 'Send `{ "action": "snooze", "minutes": 60 }`, say; `GET /api/alertctl` shows the state.',
  },
  DIGEST: {
    status: 404,
    meaning: 'There is no LLM project with this name (or the llm plugin is off), or no digest with this id (the host digest needs the probes plugin).',
    action: 'Check the name in `GET /api/llm/projects`, or the ids in `GET /api/alerts/digests`.',
  },
});

export const ruleNotFound = (id: string): HttpError => httpError(AlertsErrors.RULE_NOT_FOUND, `there is no alert rule "${id}"`);
export const ruleFromConfig = (id: string, what: string): HttpError =>
  httpError(AlertsErrors.RULE_FROM_CONFIG, `rule "${id}" is declared in the config file (alerts.rules): edit the file to ${what}`);
export const ruleManaged = (id: string, what: string): HttpError =>
  httpError(AlertsErrors.RULE_MANAGED, `rule "${id}" is managed by a plugin (host rules: /api/monitor, /api/customrules): change it there to ${what}`);
export const badRule = (message: string): HttpError => httpError(AlertsErrors.RULE, message);

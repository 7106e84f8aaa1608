import { defineErrorCodes, httpError, type HttpError } from '@vigil/plugin-sdk';

/** Codes of the host rules (`/api/monitor`, `/api/customrules`, `/api/customtest`) and the health score. */
export const HostRulesErrors = defineErrorCodes('HOST_RULES', {
  RULE: {
    status: 400,
    meaning: 'A host rule the schema accepts but that cannot work: a port out of range, a relative path, a unit name systemd would refuse, a folder rule without a size, two rules that watch the same thing.',
    action: 'Fix the key the message names (`rules[2].target`, say) and save again.',
  },
  TOO_MANY: {
    status: 400,
    meaning: 'More than 24 custom rules (perch\'s cap): each one is checked every minute.',
    action: 'Remove a rule you no longer need, or watch a folder above several.',
  },
  TEST_BUSY: {
    status: 503,
    meaning: 'Two custom-rule tests are looking already (a folder walk may take 5 s): a third waits for one of them.',
    action: 'Try again in a few seconds.',
  },
  NO_ALERTS: {
    status: 409,
    meaning: 'Host rules need the alerts plugin, which evaluates them and keeps their history, and it is off.',
    action: 'Add an `alerts:` section to the config (`alerts: {}` takes the defaults) and restart.',
  },
});

export const badHostRule = (message: string): HttpError => httpError(HostRulesErrors.RULE, message);
export const noAlerts = (): HttpError => httpError(HostRulesErrors.NO_ALERTS, 'host rules need the alerts plugin: add `alerts: {}` to the config');

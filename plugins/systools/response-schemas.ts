// The system tools' answers: every list has its bound in maxItems (the UI's types are generated from these).
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { MAX_UNITS, UNIT_ACTIONS, UNIT_TYPES } from './services/systemd-units.js';
import { MAX_CRONTAB_BYTES } from './cron/crontab-text.js';
import { MAX_AUTHORIZED_BYTES, MAX_FOLDER_ENTRIES } from './ssh/key-folder.js';

const text: JsonSchema = { type: 'string' };
const maybeText: JsonSchema = { type: ['string', 'null'] };
const maybeInt: JsonSchema = { type: ['integer', 'null'] };
const scope: JsonSchema = { type: 'string', enum: ['system', 'user'] };

export const systemdSchema = closedObject({
  running: { type: 'boolean', description: 'Whether systemd is the init system (/run/systemd/system exists).' },
  note: { ...maybeText, description: 'Why there is nothing to show, when it does not run.' },
}, { title: 'SystemdState' });

const elevation = closedObject({
  system_actions: { type: 'string', enum: ['root', 'helper', 'unavailable'], description: 'How actions on system units run: directly as root, through the privileged helper, or not at all.' },
  note: maybeText,
}, { title: 'UnitElevation' });

export const servicesQuery: JsonSchema = {
  type: 'object', additionalProperties: false,
  properties: {
    scope: { ...scope, default: 'system', description: 'system units, or the units of the user Vigil runs as (`systemctl --user`).' },
    type: { type: 'string', enum: [...UNIT_TYPES], default: 'service' },
  },
};

export const servicesSchema = closedObject({
  systemd: systemdSchema,
  scope,
  type: text,
  units: {
    type: 'array', maxItems: MAX_UNITS,
    items: closedObject({ unit: text, load: text, active: text, sub: text, description: text, enabled: { ...maybeText, description: 'The unit file\'s state: enabled, disabled, static, masked, …' } }, { title: 'SystemUnit' }),
  },
  total: { type: 'integer', description: 'Units systemctl listed; more than `units` holds when cut at the bound.' },
  error: { ...maybeText, description: 'What systemctl said when it could not list (a user scope without a user manager).' },
  elevation,
}, { title: 'SystemUnits' });

export const serviceActionBody = closedObject({
  scope,
  unit: { type: 'string', minLength: 1, maxLength: 256 },
  action: { type: 'string', enum: [...UNIT_ACTIONS] },
}, { title: 'UnitActionInput' });

export const timerActionBody = closedObject({
  scope,
  unit: { type: 'string', minLength: 1, maxLength: 256, pattern: '\\.timer$' },
  action: { type: 'string', enum: ['start', 'stop', 'enable', 'disable'] },
}, { title: 'TimerActionInput' });

export const unitActionSchema = closedObject({
  unit: text, action: text, scope,
  output: { type: 'string', description: 'What systemctl printed (enable lists the links it made).' },
  via: { type: 'string', description: 'user, root, sudo or pkexec.' },
}, { title: 'UnitActionResult' });

export const timersQuery: JsonSchema = { type: 'object', additionalProperties: false, properties: { scope: { ...scope, default: 'system' } } };

export const timersSchema = closedObject({
  systemd: systemdSchema,
  scope,
  timers: {
    type: 'array', maxItems: MAX_UNITS,
    items: closedObject({
      unit: text, activates: maybeText,
      next: { ...maybeText, description: 'Next run, ISO 8601; null when none is scheduled.' },
      last: { ...maybeText, description: 'Last run, ISO 8601; null when never.' },
      enabled: maybeText,
    }, { title: 'SystemTimer' }),
  },
  error: maybeText,
  elevation,
}, { title: 'SystemTimers' });

const cronLine = closedObject({
  line: { type: 'integer', description: '0-based line number: the id an edit names.' },
  kind: { type: 'string', enum: ['entry', 'comment', 'blank', 'variable', 'invalid'] },
  raw: { type: 'string', description: 'The line as stored.' },
  enabled: { type: 'boolean' }, schedule: text, command: text,
  human: { type: 'string', description: 'The schedule in words.' },
  name: text, value: text, error: text,
}, { title: 'CronLine', optional: ['enabled', 'schedule', 'command', 'human', 'name', 'value', 'error'] });

export const cronSchema = closedObject({
  available: { type: 'boolean', description: 'Whether the crontab program is installed.' },
  note: maybeText,
  user: { type: 'string', description: 'Whose crontab this is.' },
  revision: { type: 'string', description: 'A digest of the text read; an edit sends it back and is refused (409) when the crontab changed since.' },
  // A line is at least its line break: the 256 KiB read bounds the lines.
  lines: { type: 'array', maxItems: MAX_CRONTAB_BYTES + 1, items: cronLine },
}, { title: 'Crontab' });

export const cronSaveBody = closedObject({
  revision: { type: 'string', maxLength: 64 },
  op: { type: 'string', enum: ['add', 'edit', 'disable', 'enable', 'delete'] },
  line: { type: 'integer', minimum: 0, maximum: 100_000 },
  schedule: { type: 'string', maxLength: 200 },
  command: { type: 'string', maxLength: 4096 },
}, { title: 'CronEditInput', optional: ['line', 'schedule', 'command'] });

export const cronScheduleQuery: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['schedule'],
  properties: { schedule: { type: 'string', maxLength: 200 } },
};

export const cronScheduleSchema = closedObject({
  valid: { type: 'boolean' },
  schedule: text,
  human: maybeText,
  error: maybeText,
}, { title: 'CronScheduleReading' });

const sshKey = closedObject({
  name: text, public_file: maybeText, private_file: maybeText, type: maybeText, label: maybeText, bits: maybeInt,
  fingerprint: { ...maybeText, description: 'SHA256:…, as ssh-keygen -lf prints it.' },
  comment: text,
  keygen_line: { ...maybeText, description: 'The whole line ssh-keygen -lf prints for the public key.' },
  encrypted: { type: ['boolean', 'null'], description: 'The private key has a passphrase.' },
  loose_permissions: { type: 'boolean', description: 'The private key is readable by others: ssh refuses to use it.' },
  error: maybeText,
}, { title: 'SshKey' });

export const sshKeysSchema = closedObject({
  folder: text,
  exists: { type: 'boolean' },
  keys: { type: 'array', maxItems: MAX_FOLDER_ENTRIES, items: sshKey },
  authorized_keys: closedObject({
    present: { type: 'boolean' },
    lines: {
      type: 'array', maxItems: MAX_AUTHORIZED_BYTES + 1,
      items: closedObject({
        line: { type: 'integer' }, kind: { type: 'string', enum: ['key', 'comment', 'blank', 'invalid'] },
        options: { type: 'array', items: text }, type: maybeText, bits: maybeInt, fingerprint: maybeText, comment: text, error: maybeText,
      }, { title: 'AuthorizedKeyLine' }),
    },
    truncated: { type: 'boolean', description: 'The file is larger than 1 MiB; its first MiB is shown.' },
  }, { title: 'AuthorizedKeys' }),
  truncated: { type: 'boolean', description: `~/.ssh has more than ${MAX_FOLDER_ENTRIES} entries; the first by name were read.` },
}, { title: 'SshKeys' });

export const sshKeygenBody = closedObject({
  name: { type: 'string', minLength: 1, maxLength: 64, description: 'The file name in ~/.ssh, e.g. id_ed25519_work.' },
  comment: { type: 'string', maxLength: 200, default: '' },
  passphrase: { type: 'string', maxLength: 1024, default: '', description: 'Optional; given to ssh-keygen only, never logged, stored or answered.' },
}, { title: 'SshKeygenInput', optional: ['comment', 'passphrase'] });

export const sshKeygenSchema = closedObject({ key: sshKey, folder: text }, { title: 'SshKeygenResult' });

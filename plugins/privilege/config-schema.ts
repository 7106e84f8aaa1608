import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `privilege:` section. `privilege: {}` turns the helper on with the defaults. */
export interface PrivilegeConfig {
  /** How verbs are elevated; `auto` picks root when Vigil runs as root, else sudo when it is installed. */
  method: 'auto' | 'root' | 'sudo' | 'pkexec' | 'off';
  /** How long a session's sudo password is held after its last use. */
  password_ttl: string | number;
  /** `-o` options every apt call uses (`Dir::Etc::sourcelist=/path`): readers of apt's lists use them too. */
  apt_options: string[];
  /** Where packet captures are written; default `<data_dir>/plugins/privilege/captures`. */
  capture_dir?: string;
}

export const privilegeConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'The privileged helper: the one path by which host actions (packages, firewall rules, SMART, packet capture, signals) run as root.',
  properties: {
    method: {
      type: 'string', enum: ['auto', 'root', 'sudo', 'pkexec', 'off'], default: 'auto',
      description: 'auto: direct when Vigil runs as root, else sudo (a password asked in the dashboard, held in memory for the session) when sudo is installed. pkexec: a polkit rule allows Vigil\'s user (see the README). off: no host actions.',
    },
    password_ttl: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '1m', formatMaximum: '12h', default: '15m',
      description: 'A session\'s sudo password is forgotten this long after its last use (sudo\'s own default), and at once when the session ends.',
    },
    apt_options: {
      type: 'array', maxItems: 32, default: [],
      items: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9:_-]*=[^\\n]*$', maxLength: 4096 },
      description: 'apt configuration every apt call is given with -o (`Dir::Etc::sourcelist=/srv/lists/vigil.list`), for the writes here and the package list\'s reads alike.',
    },
    capture_dir: {
      type: 'string', minLength: 1, maxLength: 4096,
      description: 'The folder packet captures are written to (made with mode 0700); default `<data_dir>/plugins/privilege/captures`.',
    },
  },
};

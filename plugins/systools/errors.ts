import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of the system tools (plugin `systools`): services, scheduled tasks and SSH keys. */
export const SystoolsErrors = defineErrorCodes('SYSTOOLS', {
  NO_SYSTEMD: {
    status: 503,
    meaning: 'systemd does not run this machine (no /run/systemd/system: a container, WSL without systemd, another init), so there are no units or timers to act on.',
    action: 'Nothing to do here: services and timers show only where systemd is the init system. Use the crontab for scheduled tasks.',
  },
  UNIT_NAME: {
    status: 400,
    meaning: 'A unit name that systemd does not allow, or of a type the action does not apply to (a timer action on a service).',
    action: 'Give the unit\'s full name as the list shows it, e.g. `nginx.service` or `apt-daily.timer`.',
  },
  SYSTEMCTL: {
    status: 502,
    meaning: 'systemctl ran and failed, or did not answer within its time limit; the message carries what it said.',
    action: 'Read the message (`systemctl status <unit>` in the terminal tells more); a user unit needs a running user manager (`loginctl enable-linger <user>`).',
  },
  NEEDS_PRIVILEGE: {
    status: 503,
    meaning: 'A system unit or timer can be changed only as root, and Vigil runs as another user without the privileged helper on.',
    action: 'Turn on the helper (`privilege: {}` in the config): it asks for the password once per session, or uses a polkit rule (plugins/privilege/README.md).',
  },
  CRONTAB_MISSING: {
    status: 503,
    meaning: 'The `crontab` program is not installed, so the user\'s scheduled tasks cannot be read or written.',
    action: 'Install cron (`apt install cron`, `dnf install cronie`).',
  },
  CRON_SCHEDULE: {
    status: 400,
    meaning: 'A crontab schedule that cron would not accept: not five fields or an @ word, a value out of its range (minute 0-59, hour 0-23, day 1-31, month 1-12 or jan-dec, weekday 0-7 or sun-sat), a step of 0, a backwards range.',
    action: 'Fix the field the message names, e.g. `0 3 * * 1-5` (every weekday at 03:00) or `@daily`.',
  },
  CRON_COMMAND: {
    status: 400,
    meaning: 'A crontab command that is empty or holds a line break (one entry is one line).',
    action: 'Give the command on one line; put a longer script in a file and run that.',
  },
  CRON_LINE: {
    status: 400,
    meaning: 'The crontab line named is not an entry (a comment, a variable, a blank line) or is beyond the end of the file.',
    action: 'Reload the list and act on an entry shown now.',
  },
  CRON_CHANGED: {
    status: 409,
    meaning: 'The crontab changed since the page read it (edited in a terminal, or in another tab): saving would overwrite that change.',
    action: 'Reload the list, then make the change again.',
  },
  CRONTAB_FAILED: {
    status: 502,
    meaning: '`crontab -l` or `crontab -` failed or did not finish within 10 s (an unknown user, a crontab larger than 256 KiB, a table crontab refused); the message carries what it said. Nothing was changed.',
    action: 'Read the message; the crontab stays as it was. A crontab larger than 256 KiB is edited with `crontab -e`.',
  },
  SSH_KEY_NAME: {
    status: 400,
    meaning: 'A key file name that is not a plain name in ~/.ssh (a slash, a leading dot or dash, `.pub` at the end, longer than 64), or a passphrase or comment with a line break or NUL.',
    action: 'Give a name such as `id_ed25519_work`: letters, digits, `_ . -`.',
  },
  SSH_KEY_EXISTS: {
    status: 409,
    meaning: 'A key file (or its .pub) of that name already exists in ~/.ssh; a new key never overwrites one.',
    action: 'Choose another name, or delete the old key in a terminal if it is really no longer used.',
  },
  SSH_KEYGEN: {
    status: 502,
    meaning: '`ssh-keygen` is not installed, failed, or did not finish within its time limit.',
    action: 'Install OpenSSH\'s client tools (`apt install openssh-client`); the message says what ssh-keygen said.',
  },
});

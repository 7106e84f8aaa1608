import { defineErrorCodes, httpError, type HttpError } from '@vigil/plugin-sdk';

/** Codes of the privileged helper (plugin `privilege`). */
export const PrivilegeErrors = defineErrorCodes('PRIVILEGE', {
  ARGUMENT: {
    status: 400,
    meaning: 'A privileged verb was given an argument outside its allowed form (a package name with a space, a device outside /dev, a file name with a slash), or a verb that does not exist. Nothing ran.',
    action: 'Give the argument in the form the message names; plugins/privilege/README.md lists every verb and its arguments.',
  },
  PASSWORD_REQUIRED: {
    status: 403,
    meaning: 'Vigil runs as an ordinary user and sudo needs this session\'s password before a host action runs; none is held (never given, expired, or the session is new).',
    action: 'Enter the password of the user Vigil runs as in the dashboard\'s prompt (`POST /api/privilege/unlock`); it is held in memory for the session only.',
  },
  PASSWORD_WRONG: {
    status: 403,
    meaning: 'sudo refused the password given, or the user Vigil runs as may not use sudo.',
    action: 'Give the password of the user Vigil runs as (not root\'s); if it is right, allow that user in sudoers (see plugins/privilege/README.md).',
  },
  TOO_MANY_ATTEMPTS: {
    status: 429,
    meaning: 'Five wrong passwords were given in this session within 15 minutes.',
    action: 'Wait 15 minutes, or check which user Vigil runs as: its password is the one sudo wants.',
  },
  UNAVAILABLE: {
    status: 503,
    meaning: 'There is no way to run host actions here: Vigil is not root, sudo is not installed, `privilege.method` is off, or the verb\'s program is not installed.',
    action: 'Run Vigil as root, install sudo, or set up the polkit rule (plugins/privilege/README.md); install the program the message names.',
  },
  BUSY: {
    status: 409,
    meaning: 'Another package change is running: package managers take one at a time.',
    action: 'Wait for the running job to end (the Packages page shows it), then try again.',
  },
  PROCESS_CHANGED: {
    status: 409,
    meaning: 'The process to signal is not the one the page showed: it ended, and its PID may now belong to another process.',
    action: 'Reload the list and act on the process shown now.',
  },
  JOB_UNKNOWN: {
    status: 404,
    meaning: 'No job has that id: it never existed here, or it ended more than an hour ago (jobs are kept in memory, per process).',
    action: 'List the jobs with `GET /api/jobs`.',
  },
});

export const badArgument = (verb: string, message: string): HttpError => httpError(PrivilegeErrors.ARGUMENT, `${verb}: ${message}`);

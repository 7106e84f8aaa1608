import { defineErrorCodes, HttpError, httpError, VigilError } from '@vigil/plugin-sdk';

/** Codes of the probes plugin (the host monitor): its dashboard API and its readers. */
export const ProbesErrors = defineErrorCodes('PROBES', {
  PROC_UNREADABLE: {
    status: 503,
    meaning: 'The host\'s /proc could not be read under `probes.root`: Vigil is not running on Linux, or `probes.root` does not hold the host\'s proc/ and sys/.',
    action: 'Run Vigil on Linux, or set `probes.root` to where the host\'s root is mounted (`/host` in a container started with `-v /:/host:ro`).',
  },
  LOG_PATH: {
    status: 400,
    meaning: 'A log file that may not be read: not an absolute path, missing, not a regular file, or outside the folders logs may be read from.',
    action: 'Choose a file under the allowed folders (`probes.logs.allow`, default /var/log), or add its folder there.',
  },
  LOG_QUERY: {
    status: 400,
    meaning: 'A log filter that the schema lets through but that means nothing: a priority name that is not one.',
    action: 'Give prio as 0-7 or emerg, alert, crit, err, warning, notice, info, debug.',
  },
  LOG_READ: {
    status: 503,
    meaning: 'journalctl failed or timed out, or the log file could not be read.',
    action: 'Retry; the message says what journalctl said. A bad cursor is refused by journalctl: drop `cursor`.',
  },
  LOG_WATCHER: {
    status: 400,
    meaning: 'A log watcher that cannot work: two with one name, more than 20, a file watcher without a path or with one outside the allowed folders, a pattern that does not compile or that can backtrack catastrophically.',
    action: 'Fix the watcher the message names. Rewrite a refused pattern without a quantifier over a group that is itself repeated (`(a+)+` → `a+`).',
  },
  NVIDIA_SMI: {
    meaning: '`nvidia-smi` failed, timed out (2 s) or printed something unexpected; the live sample carries the GPUs DRM sysfs shows, without the NVIDIA ones.',
    action: 'Run `nvidia-smi` by hand to see its error (a driver and library version mismatch is common), or set `probes.nvidia_smi: false`.',
  },
});

export const procUnreadable = (root: string, what: string): HttpError =>
  httpError(ProbesErrors.PROC_UNREADABLE, `${what} could not be read under "${root}" (probes.root): is this Linux, and does it hold proc/?`);

export const nvidiaSmiFailed = (reason: string): VigilError => new VigilError(ProbesErrors.NVIDIA_SMI, `nvidia-smi: ${reason}`);

import { defineErrorCodes, HttpError, httpError, PermanentError, ReceiverUnavailableError } from '@vigil/plugin-sdk';

/** Codes of the channels plugin. Problems of the `channels:` section are reported as VIGIL_ERR_CONFIG_VALUE with file and line. */
export const ChannelsErrors = defineErrorCodes('CHANNELS', {
  REJECTED: {
    meaning: 'A channel\'s receiver refused a notification and retrying cannot help: a 4xx other than 408/429 (Slack ' +
      'invalid_payload, a revoked Discord webhook), a redirect, an SMTP 5xx reply or a refused login. The delivery is failed.',
    action: 'Read the delivery\'s last error: fix the channel\'s URL, token or password (or the receiver), then test the ' +
      'channel from the Alerts page.',
  },
  UNAVAILABLE: {
    meaning: 'A channel\'s receiver could not be reached, timed out, or answered 5xx, 408, 429 or an SMTP 4xx; the delivery ' +
      'is retried with backoff (honouring Retry-After and Discord\'s retry_after) up to channels.max_attempts.',
    action: 'Nothing if it recovers. If it lasts, check the receiver and the network from the host running Vigil.',
  },
  SETTINGS: {
    status: 400,
    meaning: 'A channel\'s settings cannot work: a URL that does not parse, a recipient that is not an address, a setting ' +
      'the channel\'s type does not take.',
    action: 'Fix the setting the message names, in the config file or the dashboard.',
  },
  UNKNOWN: {
    status: 404,
    meaning: 'No channel has this id (it was deleted, or never existed).',
    action: 'Use an id from GET /api/alerts/channels; a rule naming a deleted channel needs editing.',
  },
  DISABLED: {
    meaning: 'The channel is disabled, so it refuses deliveries (`all` skips it).',
    action: 'Enable the channel (enabled: true) if it should notify.',
  },
  FROM_CONFIG: {
    status: 409,
    meaning: 'The channel is declared in the config file, which owns it: the API cannot change or delete it.',
    action: 'Edit the `channels.targets` entry in the config file and reload (SIGHUP), or create another channel in the dashboard.',
  },
  EXISTS: {
    status: 409,
    meaning: 'A channel with this id exists already (in the config file or the dashboard).',
    action: 'Choose another id, or update the existing channel with PUT.',
  },
  FULL: {
    status: 409,
    meaning: 'The dashboard holds 200 channels, the most it keeps (a bound on each list and on the delivery metrics\' labels).',
    action: 'Delete a channel you no longer use, or declare channels in the config file (channels.targets).',
  },
  SECRET_KEY: {
    meaning: 'The key that encrypts the secrets entered in the dashboard cannot be used: the key file is unreadable, of the ' +
      'wrong size, readable by others, or not the key the secrets were encrypted with (another data directory).',
    action: 'Restore the key file (mode 0600) that was used, or point channels.key_file at it; every process sharing the ' +
      'store needs the same key. Without it, enter the channels\' secrets again.',
  },
  DESKTOP_UNAVAILABLE: {
    meaning: 'A desktop channel cannot notify here: no session bus (DBUS_SESSION_BUS_ADDRESS unset), or no notify-send ' +
      '(package libnotify-bin) on the PATH, as on a server.',
    action: 'Use another channel on a server; on a desktop, install libnotify-bin and run Vigil in the user\'s session.',
  },
  REQUEST: {
    status: 400,
    meaning: 'A plugin asked the channels service for something it cannot do: an empty or overlong event id, too many ' +
      'channels or events at once, a message without a title.',
    action: 'Plugin authors: fix the call the message describes.',
  },
});

/** Permanent: the delivery fails at once, with this code (an unknown or disabled channel). */
export const refused = (code: string, message: string): PermanentError => new PermanentError(message, { code });

/** Permanent: settings that cannot work fail the delivery at once. */
export const settingsError = (message: string): PermanentError => refused(ChannelsErrors.SETTINGS, message);

export const unknownChannel = (id: string): HttpError =>
  httpError(ChannelsErrors.UNKNOWN, `no channel has the id ${JSON.stringify(id)}`);

export const channelFromConfig = (id: string, doing: string): HttpError =>
  httpError(ChannelsErrors.FROM_CONFIG, `channel "${id}" is declared in the config file; ${doing} there (channels.targets)`);

/**
 * Retryable: the receiver could not be reached, or answered "later" (an SMTP 4xx). The cause is left out on purpose:
 * a network error's text may hold the URL, which is a secret, and the message says what matters.
 */
export const receiverUnavailable = (message: string, retryAfterMs?: number): ReceiverUnavailableError =>
  new ReceiverUnavailableError(ChannelsErrors.UNAVAILABLE, message, retryAfterMs !== undefined ? { retryAfterMs } : {});

/** Permanent: the receiver refused, and would refuse again (an SMTP 5xx, a refused login). */
export const receiverRejected = (message: string): PermanentError => new PermanentError(message, { code: ChannelsErrors.REJECTED });

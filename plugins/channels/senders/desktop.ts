import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { PermanentError } from '@vigil/plugin-sdk';
import { ChannelsErrors, receiverUnavailable } from '../errors.js';
import { clip, fieldList, LIMITS, type Sender } from './send-context.js';

const URGENCY = { info: 'low', warning: 'normal', critical: 'critical' } as const;

/** Why desktop notifications cannot be shown with this environment, or undefined when they can. */
export async function desktopUnavailable(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (!env.DBUS_SESSION_BUS_ADDRESS) return 'no session bus (DBUS_SESSION_BUS_ADDRESS is not set: Vigil runs outside a desktop session)';
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      await access(join(dir, 'notify-send'), constants.X_OK);
      return undefined;
    } catch { /* not in this directory */ }
  }
  return 'notify-send is not on the PATH (install libnotify-bin)';
}

/** `notify-send` in the user's session; where there is none, the channel fails at once, saying it is unavailable. */
export const sendDesktop: Sender = async (channel, message, context) => {
  const what = `desktop channel "${channel.id}"`;
  const unavailable = await desktopUnavailable(context.env);
  if (unavailable) throw new PermanentError(`${what} is unavailable: ${unavailable}`, { code: ChannelsErrors.DESKTOP_UNAVAILABLE });
  const body = [clip(message.text, 1000), ...fieldList(message).slice(0, 5).map((f) => `${f.name}: ${f.value}`)].join('\n');
  const args = ['--app-name=Vigil', `--urgency=${URGENCY[message.severity]}`, '--', clip(message.title, LIMITS.title), body];
  await new Promise<void>((resolve, reject) => {
    execFile('notify-send', args, { env: context.env, timeout: context.timeoutMs, windowsHide: true }, (err, _stdout, stderr) => {
      if (err) reject(receiverUnavailable(`${what}: notify-send failed: ${String(stderr).trim().slice(0, 300) || err.message}`));
      else resolve();
    });
  });
};

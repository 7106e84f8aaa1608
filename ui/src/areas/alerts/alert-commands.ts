// The palette's alerting actions: stop, start and snooze from anywhere, and the Alerts page's sections.
import type { PaletteCommand } from '../types.js';
import { alertctl, alerting, snoozeLabel } from './alerting-status.js';
import { SNOOZE_MINUTES } from './alerts-api.js';

const failed = (err: unknown) => `The alerting change failed: ${(err as Error).message}`;

/** Built when the palette opens, so it offers what makes sense in the current state. */
export function alertCommands(): PaletteCommand[] {
  const state = alerting.value?.state;
  const act = (action: 'start' | 'stop' | 'snooze', done: string, minutes?: number): PaletteCommand['run'] => async (ctx) => {
    try {
      await alertctl(action, minutes);
      ctx.announce(done);
    } catch (err) {
      ctx.announce(failed(err));
    }
  };
  return [
    ...(state === 'on' || state === undefined ? [{
      id: 'alerts.stop', title: 'Stop alerting', icon: 'alert' as const, keywords: ['alerts', 'pause', 'mute', 'silence', 'maintenance'],
      run: act('stop', 'Alerting is stopped: no rule fires until you start it.'),
    }] : [{
      id: 'alerts.start', title: 'Start alerting', icon: 'alert' as const, keywords: ['alerts', 'resume', 'unmute', 'unsnooze'],
      run: act('start', 'Alerting is on.'),
    }]),
    ...SNOOZE_MINUTES.map((m) => ({
      id: `alerts.snooze-${m}`, title: `Snooze alerts for ${snoozeLabel(m)}`, icon: 'alert' as const, keywords: ['alerts', 'mute', 'silence', 'snooze'],
      run: act('snooze', `Alerting is snoozed for ${snoozeLabel(m)}.`, m),
    })),
    { id: 'alerts.new-rule', title: 'Create an alert rule', icon: 'alert', keywords: ['alerts', 'new rule', 'threshold'], run: (ctx) => ctx.navigate('/alerts?rule=new') },
    { id: 'alerts.channels', title: 'Add a notification channel', icon: 'alert', keywords: ['channels', 'webhook', 'slack', 'discord', 'ntfy', 'email'], run: (ctx) => ctx.navigate('/alerts?channel=new') },
  ];
}

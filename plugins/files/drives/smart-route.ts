// The SMART overall-health check of one drive, on request, through the privileged helper (`smartctl -H -i -j` is
// its `smartctl-health` verb): never a shell, the device checked against /sys/block first, every run in the audit log.
import { closedObject, httpError, type HttpRoutes, type PrivilegeService } from '@vigil/plugin-sdk';
import { FilesErrors } from '../errors.js';
import { readBlockDevices } from './block-devices.js';

export interface SmartAnswer {
  device: string;
  /** smartctl's overall verdict; null when it gave none (no SMART support, a virtual disk, a failed read). */
  passed: boolean | null;
  model: string | null;
  temperature_c: number | null;
  power_on_hours: number | null;
  /** One line for the page. */
  summary: string;
}

/** Reads smartctl's JSON (its exit status is a bit mask, so the JSON is what counts). */
export function parseSmartctl(device: string, output: string): SmartAnswer {
  let j: Record<string, unknown> = {};
  try { j = JSON.parse(output) as Record<string, unknown>; } catch { /* not JSON: said below */ }
  const status = j.smart_status as { passed?: boolean } | undefined;
  const passed = typeof status?.passed === 'boolean' ? status.passed : null;
  const temp = (j.temperature as { current?: number } | undefined)?.current;
  const hours = (j.power_on_time as { hours?: number } | undefined)?.hours;
  const messages = ((j.smartctl as { messages?: { string?: string }[] } | undefined)?.messages ?? []).map((m) => m.string).filter(Boolean);
  const summary = passed === true ? 'SMART overall-health self-assessment: passed'
    : passed === false ? 'SMART overall-health self-assessment: FAILED; back up this drive now'
    : messages[0] ?? (output.trim() ? 'smartctl gave no verdict for this drive' : 'smartctl printed nothing');
  return {
    device, passed, model: typeof j.model_name === 'string' ? j.model_name : null,
    temperature_c: typeof temp === 'number' ? temp : null, power_on_hours: typeof hours === 'number' ? hours : null, summary: summary.slice(0, 300),
  };
}

export function registerSmartRoute(http: HttpRoutes, privilege: () => PrivilegeService | undefined): void {
  http.route({
    method: 'POST', path: '/api/smart', tags: ['host'], role: 'owner',
    summary: 'Run a SMART overall-health check of one drive (perch\'s smart), through the privileged helper',
    description: 'The device must be a whole disk /api/diskhealth lists. Needs the privilege plugin (503 without it); its refusals ' +
      '(a password needed, no elevation) come through as they are.',
    body: closedObject({ device: { type: 'string', maxLength: 64 } }, { title: 'SmartRequest' }),
    response: closedObject({
      device: { type: 'string' }, passed: { type: ['boolean', 'null'] }, model: { type: ['string', 'null'] },
      temperature_c: { type: ['number', 'null'] }, power_on_hours: { type: ['number', 'null'] }, summary: { type: 'string' },
    }, { title: 'SmartAnswer' }),
    async handler(ctx) {
      const device = (ctx.request.body as { device: string }).device;
      const drives = await readBlockDevices();
      if (!drives.some((d) => d.device === device)) {
        throw httpError(FilesErrors.PATH, `${JSON.stringify(device)} is not a whole disk of this machine (${drives.map((d) => d.device).join(', ') || 'none listed'})`);
      }
      const helper = privilege();
      if (!helper) throw httpError(FilesErrors.NO_HELPER, 'the SMART check runs through the privileged helper, which is off: add `privilege: {}` to the config');
      const result = await helper.run({ verb: 'smartctl-health', args: [device], principal: ctx.state.auth, address: ctx.ip });
      if (result.timed_out) throw httpError(FilesErrors.TOOL, `smartctl did not answer about ${device} within its 30 s`);
      return parseSmartctl(device, result.output);
    },
  });
}

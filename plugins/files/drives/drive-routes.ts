// Drive health, container disk usage and cache clean-up: what takes space below the folders, read first; a clean-up
// only on request (the page shows the sizes and asks first), each one recorded in the audit log by the runtime.
import { closedObject, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { CLEANUP_IDS, type Cleanup, type CleanupId } from '../cleanup/cleanup-targets.js';
import { readBlockDevices } from './block-devices.js';
import { readDockerDisk } from './docker-disk.js';

const TAGS = ['host'];
const bytesOrNull: JsonSchema = { type: ['number', 'null'], minimum: 0 };

const driveSchema = closedObject({
  name: { type: 'string' }, device: { type: 'string' }, model: { type: ['string', 'null'] }, vendor: { type: ['string', 'null'] },
  size_bytes: { type: 'number', minimum: 0 }, type: { enum: ['ssd', 'spinning'] }, virtual: { type: 'boolean' }, removable: { type: 'boolean' },
  transport: { type: ['string', 'null'] },
}, { title: 'Drive' });

const cleanupTarget = closedObject({
  id: { enum: [...CLEANUP_IDS] }, title: { type: 'string' }, path: { type: ['string', 'null'] }, bytes: bytesOrNull,
  complete: { type: 'boolean' }, note: { type: 'string' }, can_clean: { type: 'boolean' },
}, { title: 'CleanupTarget' });

export function registerDriveRoutes(http: HttpRoutes, d: { cleanup: Cleanup; smartctl: () => Promise<boolean>; helper: () => boolean }): void {
  http.route({
    method: 'GET', path: '/api/diskhealth', tags: TAGS,
    summary: 'Whole disks: model, size, SSD or spinning (the kernel\'s rotational flag), and whether a SMART check can run',
    description: 'Read from /sys/block (no subprocess); loop, RAM, zram, device-mapper and optical devices left out; at most 64.',
    response: closedObject({
      drives: { type: 'array', items: driveSchema, maxItems: 64 },
      smartctl: { type: 'boolean', description: 'smartctl is on PATH' },
      helper: { type: 'boolean', description: 'the privileged helper (plugin privilege) is on: SMART checks run through it' },
    }, { title: 'DiskHealth' }),
    async handler() {
      return { drives: (await readBlockDevices()).slice(0, 64), smartctl: await d.smartctl(), helper: d.helper() };
    },
  });

  http.route({
    method: 'GET', path: '/api/dockerdisk', tags: TAGS,
    summary: 'Container disk usage (docker system df): images, containers, volumes, build cache, and what is reclaimable',
    description: 'available: false with the reason when docker is missing or its daemon does not answer within 10 s.',
    response: closedObject({
      available: { type: 'boolean' }, reason: { type: 'string' },
      rows: {
        type: 'array', maxItems: 16,
        items: closedObject({ type: { type: 'string' }, total: { type: 'number' }, active: { type: 'number' }, size: { type: 'string' }, reclaimable: { type: 'string' } }, { title: 'DockerDiskRow' }),
      },
    }, { title: 'DockerDisk', optional: ['reason', 'rows'] }),
    handler: () => readDockerDisk(),
  });

  http.route({
    method: 'GET', path: '/api/cleanup', tags: TAGS, role: 'owner',
    summary: 'What a clean-up would free, measured first: your caches, the trash, the apt package cache, old journal files',
    description: 'Each folder is measured by a bounded walk (10 s); complete: false says the figure is a lower bound.',
    response: closedObject({ targets: { type: 'array', items: cleanupTarget, maxItems: 8 } }, { title: 'CleanupTargets' }),
    async handler() {
      return { targets: await d.cleanup.targets() };
    },
  });

  http.route({
    method: 'POST', path: '/api/clean', tags: TAGS, role: 'owner',
    summary: 'Clean one target (perch\'s clean): the dashboard shows its size and asks first',
    description: 'The package cache and the journal need root (403 otherwise, with the command to run).',
    body: closedObject({ target: { enum: [...CLEANUP_IDS] } }, { title: 'CleanRequest' }),
    response: closedObject({ id: { enum: [...CLEANUP_IDS] }, before: bytesOrNull, after: bytesOrNull }, { title: 'CleanResult' }),
    async handler(ctx) {
      const result = await d.cleanup.clean((ctx.request.body as { target: CleanupId }).target);
      await http.audit({ principal: ctx.state.auth, action: 'files clean', target: result.id, status: 200, address: ctx.ip, detail: `${result.before ?? '?'} bytes before, ${result.after ?? '?'} after` });
      return result;
    },
  });
}

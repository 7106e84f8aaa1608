import type { WidgetDefinition } from '../types.js';

/**
 * The host monitor's tiles on the home grid (perch's home widgets): the default set first, in perch's order, then
 * the gallery's. Battery only where there is one, alerts only with the alerts plugin, the fleet only when it is on.
 * Default sizes fill whole rows of six on a machine without a battery (a server, the usual host): a wide CPU and
 * four small tiles; three 2×2 panels; the logs beside the alerts.
 */
export const hostWidgets: WidgetDefinition[] = [
  { id: 'cpu', path: '/host', title: 'CPU', description: 'Busy share of all cores, load averages, the last minutes.', keywords: ['processor', 'load', 'usage'], size: { w: 2, h: 1 }, default: true, load: () => import('./widgets/cpu-widget.js') },
  { id: 'mem', path: '/host', title: 'Memory', description: 'Memory in use, and swap.', keywords: ['ram', 'swap'], size: { w: 1, h: 1 }, default: true, load: () => import('./widgets/memory-widget.js') },
  { id: 'net', path: '/host', title: 'Network', description: 'Traffic in and out per second over every interface.', keywords: ['bandwidth', 'interfaces', 'download', 'upload', 'traffic'], size: { w: 1, h: 1 }, default: true, load: () => import('./widgets/network-widget.js') },
  { id: 'temp', path: '/host', title: 'Temperature', description: 'The hottest sensor.', keywords: ['sensors', 'heat', 'thermal', 'celsius'], size: { w: 1, h: 1 }, default: true, load: () => import('./widgets/temperature-widget.js') },
  { id: 'battery', path: '/host', title: 'Battery', description: 'Charge, and whether it charges.', keywords: ['power', 'charge', 'laptop'], size: { w: 1, h: 1 }, default: true, cap: 'battery', load: () => import('./widgets/battery-widget.js') },
  { id: 'uptime', path: '/host', title: 'Uptime', description: 'Time since boot, hostname and system.', keywords: ['boot', 'hostname', 'os', 'kernel'], size: { w: 1, h: 1 }, default: true, load: () => import('./widgets/uptime-widget.js') },
  { id: 'core', path: '/host', title: 'Per-core load', description: 'Busy share of each core.', keywords: ['cores', 'threads', 'cpu'], size: { w: 2, h: 2 }, default: true, load: () => import('./widgets/cores-widget.js') },
  { id: 'disk', path: '/host', title: 'Disk I/O', description: 'Reads and writes per second over whole disks.', keywords: ['io', 'storage', 'read', 'write', 'throughput'], size: { w: 2, h: 2 }, default: true, load: () => import('./widgets/disk-io-widget.js') },
  { id: 'health', path: '/host', title: 'Health score', description: 'A score out of 100 and what to fix, worst first.', keywords: ['score', 'findings', 'updates', 'services'], size: { w: 2, h: 2 }, default: true, load: () => import('./widgets/health-widget.js') },
  { id: 'critlogs', path: '/host/logs', title: 'Critical logs', description: 'The newest system journal lines at priority err or worse.', keywords: ['journal', 'errors', 'syslog', 'logs', 'kernel'], size: { w: 4, h: 2 }, default: true, load: () => import('./widgets/critical-logs-widget.js') },
  { id: 'alerts', path: '/host/alerts', title: 'Host alerts', description: 'Host rules firing now and the latest alerts.', keywords: ['alerting', 'rules', 'firing', 'notifications'], size: { w: 2, h: 2 }, default: true, plugin: 'alerts', load: () => import('./widgets/alerts-widget.js') },
  { id: 'fleet', path: '/host/fleet', title: 'Fleet', description: 'Every machine of the fleet: status, CPU, memory, temperature.', keywords: ['machines', 'servers', 'instances', 'remote'], size: { w: 'full', h: 1 }, default: true, plugin: 'fleet', load: () => import('./widgets/fleet-widget.js') },
  { id: 'procs', path: '/host/processes', title: 'Top processes', description: 'The busiest processes by CPU, with their memory.', keywords: ['processes', 'top', 'pid', 'tasks'], size: { w: 2, h: 2 }, load: () => import('./widgets/processes-widget.js') },
  { id: 'ports', path: '/host/network', title: 'Listening ports', description: 'What listens on this machine and who owns it, network-visible first.', keywords: ['ports', 'listening', 'services', 'network', 'firewall'], size: { w: 2, h: 2 }, plugin: 'network', load: () => import('./widgets/ports-widget.js') },
  { id: 'bigfolders', path: '/host/storage', title: 'Big folders', description: 'The largest folders of the newest folder-size scan.', keywords: ['storage', 'du', 'ncdu', 'space', 'folders'], size: { w: 2, h: 2 }, plugin: 'files', load: () => import('./widgets/big-folders-widget.js') },
  { id: 'disks', path: '/host/storage', title: 'Disk usage', description: 'How full each real partition is, fullest first.', keywords: ['storage', 'partitions', 'df', 'space', 'mounts'], size: { w: 2, h: 2 }, load: () => import('./widgets/disks-widget.js') },
  { id: 'updates', path: '/host/packages?updatable=1', title: 'Updates', description: 'Packages with a newer version, from the native package manager.', keywords: ['packages', 'apt', 'upgrade', 'software'], size: { w: 2, h: 2 }, plugin: 'packages', load: () => import('./widgets/updates-widget.js') },
  { id: 'containers', path: '/host/containers', title: 'Containers', description: 'Containers running per engine (Docker, Podman, nerdctl, LXD/Incus), and any engine that did not answer.', keywords: ['docker', 'podman', 'lxd', 'kubernetes', 'pods'], size: { w: 2, h: 2 }, plugin: 'containers', cap: 'containers', load: () => import('./widgets/containers-widget.js') },
];

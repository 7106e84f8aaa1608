import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FirewallTool } from '../elevation.js';
import { runBounded } from '../run-bounded.js';
import { findTool } from '../tool-path.js';

/** One firewall tool as this machine has it. */
export interface FirewallToolState {
  tool: FirewallTool;
  installed: boolean;
  path: string | null;
  /** The tool's own switch: ufw's ENABLED in /etc/ufw/ufw.conf, the systemd unit's enablement for firewalld and nftables. Null: unknown. */
  enabled: boolean | null;
  /** `systemctl is-active` of its unit; null without systemd. */
  service: string | null;
  /** One sentence: what this means. */
  summary: string;
}

export interface FirewallStatus {
  tools: FirewallToolState[];
  /** `on`: a tool is enabled (and its service active where systemd tells); `off`: installed, none enabled; `none`: no tool installed. */
  verdict: 'on' | 'off' | 'none';
  /** The tool that is on, or the first installed. */
  tool: FirewallTool | null;
  message: string;
}

const TOOLS: { tool: FirewallTool; program: string; unit: string }[] = [
  { tool: 'ufw', program: 'ufw', unit: 'ufw' },
  { tool: 'firewalld', program: 'firewall-cmd', unit: 'firewalld' },
  { tool: 'nftables', program: 'nft', unit: 'nftables' },
];
const SYSTEMCTL_TIMEOUT_MS = 5000;

const exists = (p: string) => access(p).then(() => true, () => false);

/** `systemctl <verb> a b c` prints one word per unit, in order, whatever its exit code. */
async function systemctlWords(verb: 'is-active' | 'is-enabled', units: string[]): Promise<(string | null)[]> {
  const systemctl = await findTool('systemctl');
  if (!systemctl) return units.map(() => null);
  try {
    const run = await runBounded(systemctl, [verb, '--', ...units], { timeoutMs: SYSTEMCTL_TIMEOUT_MS, maxBytes: 64 * 1024 });
    const words = run.stdout.split('\n').map((l) => l.trim());
    return units.map((_, i) => words[i] || null);
  } catch {
    return units.map(() => null);
  }
}

/** ufw's switch, which `ufw enable` writes: readable by anyone (no privileges). */
async function ufwEnabled(root: string): Promise<boolean | null> {
  const text = await readFile(join(root, 'etc/ufw/ufw.conf'), 'utf8').catch(() => undefined);
  if (text === undefined) return null;
  return /^\s*ENABLED\s*=\s*yes\s*$/mi.test(text);
}

/**
 * The firewall's state read without privileges: which of ufw, firewalld and nftables is installed, its own
 * enabled switch, and its unit's state (two `systemctl` calls, 5 s each at most, only where systemd runs).
 */
export async function firewallStatus(root = '/'): Promise<FirewallStatus> {
  const paths = await Promise.all(TOOLS.map((t) => findTool(t.program)));
  const systemd = await exists(join(root, 'run/systemd/system'));
  const units = TOOLS.map((t) => t.unit);
  const [active, enabled] = systemd ? await Promise.all([systemctlWords('is-active', units), systemctlWords('is-enabled', units)]) : [units.map(() => null), units.map(() => null)];
  const ufw = await ufwEnabled(root);
  const tools = TOOLS.map((t, i): FirewallToolState => {
    const installed = paths[i] !== undefined;
    const on = t.tool === 'ufw' ? ufw : enabled[i] === null ? null : enabled[i] === 'enabled';
    const service = active[i];
    let summary: string;
    if (!installed) summary = `${t.tool} is not installed.`;
    else if (on === null) summary = `${t.tool} is installed; whether it is enabled cannot be read here.`;
    else if (!on) summary = `${t.tool} is installed but not enabled.`;
    else if (service !== null && service !== 'active') summary = `${t.tool} is enabled, but its service is ${service}.`;
    else summary = `${t.tool} is enabled${service === 'active' ? ' and its service is active' : ''}.`;
    return { tool: t.tool, installed, path: paths[i] ?? null, enabled: installed ? on : null, service: installed ? service : null, summary };
  });
  const installed = tools.filter((t) => t.installed);
  const live = installed.find((t) => t.enabled === true && (t.service === null || t.service === 'active'));
  if (live) return { tools, verdict: 'on', tool: live.tool, message: live.summary };
  if (installed.length === 0) {
    return { tools, verdict: 'none', tool: null, message: 'No firewall tool is installed (ufw, firewalld or nftables): nothing filters what reaches the listening ports. Install one with the package manager (ufw is the simplest).' };
  }
  const stalled = installed.find((t) => t.enabled === true);
  if (stalled) return { tools, verdict: 'off', tool: stalled.tool, message: `${stalled.summary} Nothing filters traffic until it runs: \`sudo systemctl start ${stalled.tool}\`.` };
  const first = installed[0];
  const hint = first.tool === 'ufw' ? ' Allow SSH first (`sudo ufw allow OpenSSH`), then `sudo ufw enable`.'
    : first.tool === 'firewalld' ? ' Turn it on with `sudo systemctl enable --now firewalld`.'
      : ' Load a rule set and turn it on with `sudo systemctl enable --now nftables`.';
  return {
    tools, verdict: 'off', tool: first.tool,
    message: `${installed.map((t) => t.tool).join(' and ')} ${installed.length > 1 ? 'are' : 'is'} installed but not enabled: no firewall filters what reaches the listening ports.${hint}`,
  };
}

import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContainerEnvironmentKind } from '@vigil/plugin-sdk';
import { onPath } from './path-lookup.js';
import { readBatteries } from './proc/battery.js';
import { readDrmGpus } from './proc/drm-gpus.js';

export interface HostCaps {
  os: 'linux' | 'other';
  package_manager: 'apt' | 'dnf' | 'pacman' | 'zypper' | null;
  snap: boolean; flatpak: boolean; gnome: boolean; wayland: boolean; battery: boolean;
  systemd: boolean; journal: boolean; gpu: boolean; nvidia_smi: boolean;
  /** Container environments: the `containers` plugin's when it is on, else the engines' commands on PATH. */
  containers: ContainerEnvironmentKind[];
}

/** Package managers in the order they are looked for: a Debian with pacman installed by hand is still apt. */
const PACKAGE_MANAGERS = ['apt', 'dnf', 'pacman', 'zypper'] as const;
const ENGINES = ['docker', 'podman', 'nerdctl'] as const;

const exists = (path: string) => access(path).then(() => true, () => false);

/**
 * What this machine has, for the UI to hide what does not apply. Files and PATH lookups only (a few dozen `access`
 * calls and the battery and DRM directories): no subprocess. `env` is the process's (the session Vigil runs in).
 */
export async function detectCaps(root: string, env: NodeJS.ProcessEnv = process.env): Promise<HostCaps> {
  const path = env.PATH ?? '';
  const [linux, systemd, batteries, drm, managers, snap, flatpak, gnomeShell, journalctl, nvidia, engines] = await Promise.all([
    exists(join(root, 'proc/stat')),
    exists(join(root, 'run/systemd/system')),
    readBatteries(root),
    readDrmGpus(root),
    Promise.all(PACKAGE_MANAGERS.map((m) => onPath(m, path))),
    onPath('snap', path), onPath('flatpak', path), onPath('gnome-shell', path), onPath('journalctl', path), onPath('nvidia-smi', path),
    Promise.all(ENGINES.map((e) => onPath(e, path))),
  ]);
  const desktop = `${env.XDG_CURRENT_DESKTOP ?? ''}:${env.DESKTOP_SESSION ?? ''}`.toLowerCase();
  return {
    os: linux ? 'linux' : 'other',
    package_manager: PACKAGE_MANAGERS[managers.indexOf(true)] ?? null,
    snap, flatpak,
    gnome: desktop.includes('gnome') || gnomeShell,
    wayland: env.XDG_SESSION_TYPE === 'wayland' || Boolean(env.WAYLAND_DISPLAY),
    battery: batteries.length > 0,
    systemd,
    journal: systemd && journalctl,
    gpu: drm.length > 0 || nvidia,
    nvidia_smi: nvidia,
    containers: ENGINES.filter((_, i) => engines[i]),
  };
}

/** How long detected capabilities are answered again before they are looked for anew. */
export const CAPS_TTL_MS = 5 * 60_000;

/** `detectCaps`, cached for CAPS_TTL_MS; concurrent callers share one detection. */
export function cachedCaps(detect: () => Promise<HostCaps>, now: () => number = Date.now): () => Promise<HostCaps> {
  let cached: { at: number; caps: Promise<HostCaps> } | undefined;
  return () => {
    if (!cached || now() - cached.at >= CAPS_TTL_MS) {
      const caps = detect();
      cached = { at: now(), caps };
      // A failed detection is not kept: the next call tries again.
      caps.catch(() => { if (cached?.caps === caps) cached = undefined; });
    }
    return cached.caps;
  };
}

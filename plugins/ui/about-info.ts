import type { RuntimeInfo } from '@vigil/plugin-sdk';

/** `GET /api/ui/about`: what the About page shows. Never a credential (storage locations are stripped of them). */
export function aboutInfo(runtime: RuntimeInfo, now = Date.now()) {
  return {
    version: runtime.version,
    install_method: runtime.installMethod,
    data_dir: runtime.dataDir,
    config_file: runtime.configFile ?? null,
    storage: runtime.storage(),
    started_at: runtime.startedAt,
    uptime_s: Math.max(0, Math.round((now - runtime.startedAt) / 1000)),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    control_plane: runtime.controlPlaneUrl(),
    plugins: runtime.plugins(),
  };
}

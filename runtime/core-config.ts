/** The core keys of the config file after validation and defaults (see runtime/config/core-schema.ts). */
export interface CoreConfig {
  data_dir: string;
  log: { level: 'debug' | 'info' | 'warn' | 'error'; format?: 'json' | 'pretty' };
  control_plane: {
    listen: string | number;
    token?: string;
    body_limit: string | number;
    lockout: { max_failures: number; window: string | number };
    allowed_hosts?: string[];
    metrics_auth: boolean;
    tls?: { cert_file: string; key_file: string };
  };
  storage: { url?: string };
  shutdown_timeout: string | number;
  plugins: { use: string; with?: Record<string, unknown> }[];
}

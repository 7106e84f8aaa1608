/** The core keys of the config file after validation and defaults (see runtime/config/core-schema.ts). */
export interface CoreConfig {
  data_dir: string;
  log: { level: 'debug' | 'info' | 'warn' | 'error'; format?: 'json' | 'pretty' };
  control_plane: {
    listen: string | number;
    token?: string;
    body_limit: string | number;
    lockout: { max_failures: number; window: string | number };
    session: { lifetime: string | number; idle_timeout: string | number };
    allowed_hosts?: string[];
    metrics_auth: boolean;
    tls?: { cert_file: string; key_file: string };
    oidc?: OidcConfig;
  };
  storage: { url?: string };
  shutdown_timeout: string | number;
  plugins: { use: string; with?: Record<string, unknown> }[];
}

/** `control_plane.oidc` after defaults. */
export interface OidcConfig {
  issuer: string;
  client_id: string;
  client_secret_env?: string;
  redirect_url: string;
  provider_name: string;
  scopes: string[];
  allowed_domains: string[];
  allowed_groups: string[];
  groups_claim: string;
  role_claim?: string;
  role_map: Record<string, string>;
  default_role: 'viewer' | 'member' | 'admin' | 'none';
}

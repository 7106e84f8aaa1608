import type { JsonSchema } from '@vigil/plugin-sdk';

const duration = (description: string, defaultValue: string): JsonSchema => ({
  type: ['string', 'integer'], format: 'duration', minimum: 0, default: defaultValue,
  description: `${description} A duration (500ms, 30s, 10m, 2h, 7d) or a number of milliseconds.`,
});

/**
 * The core keys of vigil.yaml, strict already. Built-in plugins' sections are added by composeSchema.
 * Relative paths (data_dir, tls files, sqlite paths) resolve from the config file's directory.
 * Durations and sizes are kept as written; read them with parseDuration and parseByteSize.
 */
export const coreConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    data_dir: {
      type: 'string', minLength: 1, default: './.vigil',
      description: 'Where Vigil keeps its state: the SQLite database and each plugin\'s own directory. Relative to the working directory, like a storage.url path; files the config names (plugins, TLS, policies) are relative to the config file.',
    },
    log: {
      type: 'object', additionalProperties: false, default: {},
      description: 'Logging: JSON lines to stderr, or pretty text.',
      properties: {
        level: { enum: ['debug', 'info', 'warn', 'error'], default: 'info', description: 'The least severe level written.' },
        format: { enum: ['json', 'pretty'], description: 'Default: pretty when stderr is a terminal, json otherwise.' },
      },
    },
    control_plane: {
      type: 'object', additionalProperties: false, default: {},
      description: 'The control-plane HTTP server: health, metrics, the API listing, plugin routes and the UI.',
      properties: {
        listen: {
          type: ['string', 'integer'], format: 'listen-address', minimum: 0, maximum: 65535, default: '127.0.0.1:9095',
          description: 'host:port, or a port number (0 picks a free port).',
        },
        token: {
          type: 'string',
          description: 'The dashboard token. When absent (or empty), one is generated on first run and its URL printed once. Usually ${VIGIL_TOKEN}.',
        },
        body_limit: {
          type: ['string', 'integer'], format: 'byte-size', minimum: 0, default: '1mb',
          description: 'Largest request body the control plane accepts. A size (512, 64kb, 1mb; 1kb = 1024) or a number of bytes.',
        },
        lockout: {
          type: 'object', additionalProperties: false, default: {},
          description: 'Clients that send repeated bad tokens are locked out (429 with Retry-After); see docs/security.md for what counts.',
          properties: {
            max_failures: { type: 'integer', minimum: 1, default: 20, description: 'Bad tokens allowed from one address per window.' },
            window: duration('The window over which failures are counted, and the lockout time.', '10m'),
          },
        },
        session: {
          type: 'object', additionalProperties: false, default: {},
          description: 'Dashboard sessions (the cookie a login gives), recorded on the server: a logout, a token change or ' +
            'DELETE /api/sessions ends them; see docs/security.md.',
          properties: {
            lifetime: {
              ...duration('How long a session lasts after the login, however it is used.', '7d'), formatMinimum: '1s',
            },
            idle_timeout: {
              ...duration('A session not used for this long ends (checked to within a minute, or a tenth of it when shorter).', '1d'),
              formatMinimum: '1s',
            },
          },
        },
        oidc: {
          type: 'object', additionalProperties: false, required: ['issuer', 'client_id', 'redirect_url'],
          description: 'Single sign-on for the dashboard with an OpenID Connect provider (authorisation code flow with PKCE); the ' +
            'login page then offers "Sign in with <provider_name>" beside the token. See "Single sign-on" in docs/security.md.',
          properties: {
            issuer: { type: 'string', format: 'uri', description: 'The issuer URL; its /.well-known/openid-configuration is read at the first sign-in.' },
            client_id: { type: 'string', minLength: 1, description: 'The client id registered at the provider.' },
            client_secret_env: {
              type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
              description: 'The name of the environment variable that holds the client secret (never the secret itself). Absent: a public client (PKCE only).',
            },
            redirect_url: {
              type: 'string', format: 'uri',
              description: 'The control plane\'s public URL followed by /auth/oidc/callback; register exactly this at the provider.',
            },
            provider_name: { type: 'string', minLength: 1, maxLength: 60, default: 'single sign-on', description: 'Shown on the button: "Sign in with <provider_name>".' },
            scopes: { type: 'array', items: { type: 'string', pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$' }, default: ['openid', 'email', 'profile'], description: 'Scopes asked for; openid is always added.' },
            allowed_domains: {
              type: 'array', items: { type: 'string', minLength: 1 }, default: [],
              description: 'Email domains that may sign in (example.com); empty: any. A user must pass this and allowed_groups.',
            },
            allowed_groups: { type: 'array', items: { type: 'string', minLength: 1 }, default: [], description: 'Groups (in groups_claim) of which a user must be in one; empty: any.' },
            groups_claim: { type: 'string', minLength: 1, default: 'groups', description: 'The ID token claim that lists the user\'s groups.' },
            role_claim: { type: 'string', minLength: 1, description: 'The claim whose values give roles (through role_map). Default: groups_claim.' },
            role_map: {
              type: 'object', default: {}, additionalProperties: { type: 'string', pattern: '^(?:[^:]+:)?(viewer|member|admin|owner)$' },
              description: 'Claim value to role: "owner", "admin", "member" or "viewer" on the instance, or "<project>:<role>" in one ' +
                'project. Empty: claim values that are role names are taken as they are. Applied at every sign-in.',
            },
            default_role: { enum: ['viewer', 'member', 'admin', 'none'], default: 'viewer', description: 'The instance role of a new user whom role_map gives none.' },
          },
        },
        // No `default`: absent means the listen host and the loopback names, which are always allowed anyway.
        allowed_hosts: {
          type: 'array', items: { type: 'string', format: 'allowed-host' },
          description: 'Host names the control plane answers to besides the listen host, localhost, 127.0.0.1 and ::1 (against DNS ' +
            'rebinding): a request with any other Host header gets 421. Add the names you reach the dashboard by; * turns the check off.',
        },
        metrics_auth: { type: 'boolean', default: false, description: 'Whether /metrics requires the dashboard token.' },
        tls: {
          type: 'object', additionalProperties: false, required: ['cert_file', 'key_file'],
          description: 'Serve the control plane over HTTPS. The auth cookie is then marked Secure.',
          properties: {
            cert_file: { type: 'string', minLength: 1, description: 'PEM certificate chain.' },
            key_file: { type: 'string', minLength: 1, description: 'PEM private key.' },
          },
        },
      },
    },
    storage: {
      type: 'object', additionalProperties: false, default: {},
      description: 'Where records, jobs and plugin tables live.',
      properties: {
        url: {
          type: 'string', format: 'storage-url',
          description: 'sqlite:<path> or postgres://user@host:5432/db. Default: SQLite at <data_dir>/vigil.db.',
        },
      },
    },
    shutdown_timeout: duration('How long a stop may take to drain before the process exits anyway.', '10s'),
    plugins: {
      type: 'array', default: [],
      description: 'Third-party plugins, started after the built-in ones they depend on.',
      items: {
        type: 'object', additionalProperties: false, required: ['use'],
        properties: {
          use: { type: 'string', minLength: 1, description: 'A path (./examples/hello-plugin) or an npm package name.' },
          with: {
            type: 'object', additionalProperties: true,
            description: 'The plugin\'s own config, validated against the plugin\'s schema once it is loaded.',
          },
        },
      },
    },
  },
};

/** The kinds of channel. */
export const CHANNEL_TYPES = ['ntfy', 'slack', 'discord', 'webhook', 'email', 'desktop'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The settings of one channel, as the config file and the API take them; the code applies the defaults. */
export interface ChannelSettings {
  type: ChannelType;
  name?: string;
  enabled?: boolean;
  /** ntfy (the topic URL), slack, discord, webhook. */
  url?: string;
  /** ntfy: an access token, sent as `Authorization: Bearer`. */
  token?: string;
  /** ntfy: 1-5, instead of the one the severity maps to. */
  priority?: number;
  /** ntfy: tags (emoji shortcodes) added to the severity's. */
  tags?: string[];
  /** discord: the name the messages appear under. */
  username?: string;
  /** webhook: the HMAC-SHA256 key that signs each request. */
  secret?: string;
  /** webhook: extra request headers (an API key, say). */
  headers?: Record<string, string>;
  /** email. */
  host?: string;
  port?: number;
  security?: 'starttls' | 'tls' | 'none';
  user?: string;
  password?: string;
  from?: string;
  to?: string[];
  /** email: check the server's certificate. Default true; false only for a server with a self-signed one you trust. */
  tls_verify?: boolean;
}

/** A channel the config file declares: its settings with its id. */
export interface ConfiguredChannel extends ChannelSettings {
  id: string;
}

export interface ChannelsConfig {
  /** Attempts per delivery before it is `failed`. */
  max_attempts: number;
  /** Base delay of the exponential backoff; doubled per attempt, with jitter. */
  backoff: string | number;
  max_backoff: string | number;
  /** One send's deadline (connect, request and answer). */
  timeout: string | number;
  /** Deliveries sent at once by each process. */
  concurrency: number;
  /** How long settled deliveries and their messages are kept. */
  retention: string | number;
  /** The AES-GCM key file of the secrets entered through the API; default `<data_dir>/plugins/channels/secrets.key`. */
  key_file?: string;
  targets: ConfiguredChannel[];
}

/** A channel ready to send: its settings with secrets, and where it comes from. */
export interface Channel extends ChannelSettings {
  id: string;
  name: string;
  enabled: boolean;
  source: 'config' | 'store';
}

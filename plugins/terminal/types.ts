export interface TerminalConfig {
  enabled: boolean;
  /** A duration string or ms. */
  idle_timeout: string | number;
  max_sessions: number;
  shell?: string;
}

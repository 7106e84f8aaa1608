// The part of oidc-provider 8's API the test IdP uses (the package ships no types, and @types/oidc-provider is not
// installed): the constructor, `use`, `callback`.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaLikeContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
  }
  interface Account { accountId: string; claims(): Promise<Record<string, unknown>> }

  export default class Provider {
    constructor(issuer: string, configuration: {
      clients: Record<string, unknown>[];
      jwks: { keys: unknown[] };
      cookies: { keys: string[] };
      conformIdTokenClaims?: boolean;
      claims?: Record<string, string[]>;
      pkce?: { required(): boolean };
      features?: Record<string, unknown>;
      findAccount(ctx: KoaLikeContext, id: string): Promise<Account | undefined>;
    });
    use(middleware: (ctx: KoaLikeContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}

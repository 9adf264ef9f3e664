export interface GithubAccount {
  id: number;
  login: string;
  name?: string;
  /** The primary e-mail. */
  email: string;
  /** Whether the primary e-mail is verified (default true). */
  verified?: boolean;
  /** Overrides the /user/emails list. */
  emails?: { email: string; primary: boolean; verified: boolean; visibility: string | null }[];
}

export interface GithubTokenCall {
  body: Record<string, string>;
  accept: string | undefined;
  error: string | undefined;
}

export interface GithubStandIn {
  url: string;
  close(): Promise<void>;
  tokenCalls: GithubTokenCall[];
  accounts: GithubAccount[];
  readonly account: GithubAccount;
  setAccount(account: string | (Partial<GithubAccount> & { login: string })): GithubAccount;
}

export declare const DEFAULT_GITHUB_ACCOUNT: GithubAccount;

export declare function startGithubStandIn(options: {
  clientId: string;
  clientSecret: string;
  accounts?: (Partial<GithubAccount> & { login: string })[];
  port?: number;
}): Promise<GithubStandIn>;

/** The tenant of every personal Microsoft account. */
export declare const MICROSOFT_CONSUMER_TENANT: '9188040d-6c67-4c5b-b112-36a304b66dad';

export interface MicrosoftAccount {
  email: string;
  /** Default personal (tenant MICROSOFT_CONSUMER_TENANT). */
  kind?: 'personal' | 'work';
  /** A work account's tenant (default: the stand-in's organisation tenant). */
  tenantId?: string;
  oid?: string;
  name?: string;
  /** What `xms_edov` says when the app asks for it (default true); Microsoft sends true/false or "1"/"0". */
  edov?: boolean | string;
}

export interface MicrosoftTokenCall {
  body: Record<string, string>;
  error?: string;
  /** The claims of the id_token it answered. */
  claims?: Record<string, unknown>;
}

export interface MicrosoftStandIn {
  url: string;
  close(): Promise<void>;
  organizationTenant: string;
  /** The discovery base URL of an endpoint: common (default), organizations, consumers or a tenant id. */
  baseUrl(tenant?: string): string;
  tokenCalls: MicrosoftTokenCall[];
  setAccount(account: MicrosoftAccount): Required<MicrosoftAccount>;
  /** The app registration's ID token optional claims (default ['xms_edov']). */
  setOptionalClaims(claims: string[]): void;
}

export declare function startMicrosoftStandIn(options: {
  clientId: string;
  clientSecret: string;
  accounts?: MicrosoftAccount[];
  optionalClaims?: string[];
  organizationTenant?: string;
  port?: number;
}): Promise<MicrosoftStandIn>;

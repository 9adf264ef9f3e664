import { SetMetadata } from '@nestjs/common';
import type { ZodType } from 'zod';

/** public: anyone; session: a signed-in person; admin: that role; app: a third-party app's access token (OAuth). */
export type Access = 'public' | 'session' | 'admin' | 'app';

/**
 * The shape of one endpoint, written once with the zod schemas of libs/contracts.
 * The ContractGuard validates requests with it and the OpenAPI document is
 * generated from it.
 */
export interface ContractSpec {
  summary: string;
  tags: string[];
  access: Access;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** Success answer (JSON). */
  response?: ZodType;
  successStatus?: number;
  /** Other documented answers, by status. */
  errors?: number[];
  /** How the body is encoded (OAuth endpoints take forms). Default json. */
  bodyEncoding?: 'json' | 'form';
  /** Not a JSON answer (HTML page, redirect). */
  produces?: string;
  /** The OpenAPI operationId clients generate names from; default `<Controller>_<handler>`. Set it to keep a published id when a route moves. */
  operationId?: string;
}

export const CONTRACT_KEY = 'life:contract';

export const Contract = (spec: ContractSpec) => SetMetadata(CONTRACT_KEY, spec);

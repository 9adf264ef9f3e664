// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import { ExternalService, type ServiceRegions } from './external-service.entity.js';
import { Connection } from './connection.entity.js';
import { UserCredential } from './user-credential.entity.js';

export const EXTERNAL_SERVICES_ENTITIES = [ExternalService, Connection, UserCredential];

type Inferred = InferClassEntityDB<typeof ExternalService | typeof Connection | typeof UserCredential>;

/** These tables for the typed query builder (`em.getKysely<ExternalServicesDb>()`); only inside this module. */
export type ExternalServicesDb = {
  // jsonb columns are not inferred.
  external_services: Inferred['external_services'] & {
    extra_auth_params: Record<string, string>;
    extra_headers: Record<string, string>;
    regions: ServiceRegions | null;
  };
  service_connections: Inferred['service_connections'];
  user_service_credentials: Inferred['user_service_credentials'];
};

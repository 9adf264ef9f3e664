import { SetMetadata } from '@nestjs/common';
import type { Role } from '@life/contracts';

export const ROLES_KEY = 'life:roles';

/** Only these roles may call the endpoint (checked on the server by the AuthGuard). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

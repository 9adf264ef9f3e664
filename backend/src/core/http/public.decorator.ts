import { SetMetadata } from '@nestjs/common';

export const PUBLIC_KEY = 'life:public';

/** Marks an endpoint as reachable without a session. Everything else needs one. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

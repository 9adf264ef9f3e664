import { SetMetadata } from '@nestjs/common';

export const APP_TOKEN_KEY = 'life:app-token';

/**
 * Marks an endpoint for third-party apps: the session guard steps aside and the route's own
 * guard checks an OAuth access token instead. A session token never works there, nor an app
 * token anywhere else.
 */
export const AppTokenOnly = () => SetMetadata(APP_TOKEN_KEY, true);

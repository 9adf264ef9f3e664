import { z } from 'zod';
import { ROLES } from './common.js';

/** The `user` object the SPA keeps in local storage next to `authToken` (spec section 3). */
export const SessionUserSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
  })
  .meta({ id: 'SessionUser' });
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** Local storage keys used by the SPA. */
export const STORAGE_KEYS = {
  authToken: 'authToken',
  user: 'user',
  appLanguage: 'appLanguage',
} as const;

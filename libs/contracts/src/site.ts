import { z } from 'zod';

/** Public facts the static pages need (legal pages quote the company's details). */
export const SiteInfoSchema = z
  .object({
    company: z.object({
      name: z.string(),
      taxId: z.string(),
      address: z.string(),
      email: z.string(),
    }),
    version: z.string(),
  })
  .meta({ id: 'SiteInfo' });
export type SiteInfo = z.infer<typeof SiteInfoSchema>;

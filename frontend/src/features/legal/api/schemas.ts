/**
 * The site information's schema, loaded on demand (`schema: () => import('./schemas')...`): the
 * legal routes' loaders are part of the route tree every page loads, and zod is not (issue 15).
 */
export { SiteInfoSchema } from '@life/contracts';

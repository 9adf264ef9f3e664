/**
 * The billing answers' schemas, loaded on demand (`schema: () => import('./schemas')...`): the
 * landing page shows the editions, and zod is not part of its first paint (issue 15).
 */
export { CheckoutResponseSchema, EditionsSchema } from '@life/contracts';

/** Every billing query (editions, membership) lives under this key; a failed checkout invalidates them all. */
export const BILLING_QUERY_KEY = ['billing'] as const;

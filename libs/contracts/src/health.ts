import { z } from 'zod';

const ComponentSchema = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().optional(),
  message: z.string().optional(),
  count: z.number().optional(),
});

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'error']),
    info: z.record(z.string(), ComponentSchema),
    error: z.record(z.string(), ComponentSchema),
    details: z.record(z.string(), ComponentSchema),
    version: z.string(),
    uptimeSeconds: z.number(),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

import { z } from 'zod';

/**
 * One of the member's Stripe invoices (issue 17, decision 0047): the links are Stripe's own
 * (`invoice_pdf`, `hosted_invoice_url`), answered only for the member's own customer.
 */
export const InvoiceSchema = z
  .object({
    id: z.string(),
    /** Stripe's invoice number (null while a draft). */
    number: z.string().nullable(),
    /** When it was issued (ISO 8601). */
    date: z.string(),
    /** Total in cents, VAT included when Stripe Tax is on. */
    amount_cents: z.number().int(),
    /** VAT in cents when Stripe computed it, else null. */
    tax_cents: z.number().int().nullable(),
    currency: z.string(),
    /** Stripe's status: draft, open, paid, uncollectible or void. */
    status: z.string().nullable(),
    /** Stripe's PDF download link. */
    pdf_url: z.string().nullable(),
    /** Stripe's hosted invoice page. */
    hosted_url: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof InvoiceSchema>;

export const InvoicesSchema = z.object({ invoices: z.array(InvoiceSchema), has_more: z.boolean() }).meta({ id: 'Invoices' });
export type Invoices = z.infer<typeof InvoicesSchema>;

/** Stripe's customer portal for the member's own customer: go to `url`; it comes back to the profile. */
export const PortalSessionSchema = z.object({ url: z.string() }).meta({ id: 'PortalSession' });
export type PortalSession = z.infer<typeof PortalSessionSchema>;

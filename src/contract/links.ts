import * as z from 'zod/mini';
import { Amount, CurrencyCode, PositiveId, Timestamp } from './common.js';
import { linkDescriptionMaxLength, orderKeyMaxLength } from './limits.js';

const RedirectUrl = z.optional(z.url({ protocol: /^https?$/ }));

/**
 * `POST /links` body. No `amount` makes a dynamic link, where the buyer types
 * the amount; `collect_shopper_data` is for dynamic links only.
 */
export const CreateLinkBodySchema = z
  .object({
    description: z.string().check(z.minLength(1), z.maxLength(linkDescriptionMaxLength)),
    amount: z.optional(Amount),
    currency: z.optional(CurrencyCode),
    order_key: z.optional(z.string().check(z.minLength(1), z.maxLength(orderKeyMaxLength))),
    redirect_link: RedirectUrl,
    redirect_link_cancel: RedirectUrl,
    redirect_link_failure: RedirectUrl,
    collect_shopper_data: z.optional(z.boolean()),
    ttl_minutes: z.optional(z.int().check(z.minimum(1), z.maximum(525_600))),
  })
  .check(
    z.refine((body) => !(body.collect_shopper_data === true && body.amount !== undefined), {
      message: 'is only allowed on dynamic links (without amount)',
      path: ['collect_shopper_data'],
    }),
  );
export type CreateLinkBody = z.output<typeof CreateLinkBodySchema>;
export type CreateLinkInput = z.input<typeof CreateLinkBodySchema>;

/** `POST /links` 200 `data`. */
export const CreatedLinkSchema = z.looseObject({
  payment_link_id: PositiveId,
  payment_url: z.string(),
  hash: z.string().check(z.minLength(1)),
  expires_at: z.nullable(Timestamp),
});
export type CreatedLink = z.infer<typeof CreatedLinkSchema>;

export function isDynamicLink(body: { amount?: number | undefined }): boolean {
  return body.amount === undefined;
}

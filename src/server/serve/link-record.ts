/**
 * The link record a shop's app answers `pay-checkout serve` with (from its links URL, or in the links file): snake_case
 * JSON, any stack can write it. Checked against this schema, then turned into what `resolveLink` returns (links.ts).
 * Fields this version does not know are ignored, so an app may send more than it is asked for.
 */
import * as z from 'zod/mini';
import { CurrencyCode, LinkStatusSchema, Timestamp, isSafeRedirectUrl, parseWith, summarizeProblems } from '../../contract/index.js';
import type { CheckoutLinkInfo } from '../buyer/links.js';

const text = z.string().check(z.minLength(1), z.maxLength(500));
const pageUrl = z.string().check(z.refine(isSafeRedirectUrl, { message: 'must be an absolute https URL (http only on loopback)' }));
const httpsUrl = z.string().check(z.refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:', { message: 'must be an absolute https URL' }));
const contact = z.optional(z.nullable(z.string().check(z.maxLength(200))));

export const AppLinkRecordSchema = z.looseObject({
  /** Whole pesos; absent or null: a dynamic link, the buyer types the amount. */
  amount: z.optional(z.nullable(z.number().check(z.gt(0)))),
  description: text,
  store_name: text,
  currency: z.optional(CurrencyCode),
  expires_at: z.optional(z.nullable(Timestamp)),
  status: z.optional(LinkStatusSchema),
  redirect_link: z.optional(z.nullable(pageUrl)),
  privacy_url: z.optional(z.nullable(pageUrl)),
  /** Ask the buyer for the contact fields `shopper` leaves unknown. */
  collect_shopper_data: z.optional(z.boolean()),
  shopper: z.optional(z.nullable(z.looseObject({ first_name: contact, last_name: contact, email: contact, phone_number: contact }))),
  /** A picture of what is sold, for link previews; https only. */
  image_url: z.optional(z.nullable(httpsUrl)),
});
export type AppLinkRecord = z.infer<typeof AppLinkRecordSchema>;

/** The record as `resolveLink` returns it, or a sentence saying which field breaks the contract. */
export function linkInfoOf(record: unknown): { ok: true; info: CheckoutLinkInfo } | { ok: false; problem: string } {
  const parsed = parseWith(AppLinkRecordSchema, record);
  if (!parsed.ok) return { ok: false, problem: summarizeProblems(parsed.problems) };
  const r = parsed.value;
  const info: CheckoutLinkInfo = {
    description: r.description,
    storeName: r.store_name,
    ...(r.amount != null ? { amount: r.amount } : {}),
    ...(r.currency ? { currency: r.currency } : {}),
    ...(r.expires_at ? { expiresAt: r.expires_at } : {}),
    ...(r.status ? { status: r.status } : {}),
    ...(r.redirect_link ? { redirectLink: r.redirect_link } : {}),
    ...(r.privacy_url ? { privacyUrl: r.privacy_url } : {}),
    ...(r.image_url ? { imageUrl: r.image_url } : {}),
    ...(r.collect_shopper_data !== undefined ? { collectShopperData: r.collect_shopper_data } : {}),
    ...(r.shopper ? { shopper: { first_name: r.shopper.first_name, last_name: r.shopper.last_name, email: r.shopper.email, phone_number: r.shopper.phone_number } } : {}),
  };
  return { ok: true, info };
}

/**
 * The shop API of `pay-checkout serve` in partner mode (docs/site/plugins/platforms.md): a shop registers, connects
 * through the partner's onboarding, and makes links by call. Served by `serve`, not by the service.
 */
import * as z from 'zod/mini';
import { Amount, PositiveId, Timestamp } from './common.js';
import { linkDescriptionMaxLength } from './limits.js';
import { OrderStatusSchema } from './orders.js';

export const storeStatuses = ['pending', 'connected', 'disconnected'] as const;
export const StoreStatusSchema = z.enum(storeStatuses);

const Origin = z.string().check(z.refine((value) => URL.canParse(value) && new URL(value).origin === value && /^https?:$/.test(new URL(value).protocol), 'must be an origin like https://shop.example'));

/** `POST /v1/stores` body. */
export const RegisterStoreBodySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  notify_url: z.string().check(z.minLength(1), z.maxLength(2_000)),
  allowed_origins: z.optional(z.array(Origin).check(z.maxLength(20))),
  merchant_key: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type RegisterStoreBody = z.output<typeof RegisterStoreBodySchema>;

/** `POST /v1/stores` 201 `data`: the API key and notify secret are shown here only. */
export const RegisteredStoreSchema = z.object({
  store_id: z.string(),
  api_key: z.string(),
  notify_secret: z.string(),
  status: StoreStatusSchema,
  connect_url: z.string(),
});

/** `GET /v1/stores/me` `data`. */
export const StoreProfileSchema = z.object({
  store_id: z.string(),
  name: z.string(),
  status: StoreStatusSchema,
  notify_url: z.string(),
  allowed_origins: z.array(z.string()),
  id_store: z.nullable(PositiveId),
  created_at: Timestamp,
  status_since: Timestamp,
  connect_url: z.string(),
});

/** `DELETE /v1/stores/me` `data`. */
export const DeletedStoreSchema = z.object({ store_id: z.string(), status: z.literal('disconnected') });

const ShopperText = z.optional(z.string().check(z.trim(), z.maxLength(200)));

/** `POST /v1/stores/me/links` body: `reference` is the shop's own cart or order id. */
export const CreateStoreLinkBodySchema = z.object({
  description: z.string().check(z.trim(), z.minLength(1), z.maxLength(linkDescriptionMaxLength)),
  reference: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  amount: z.optional(Amount.check(z.refine(Number.isInteger, 'must be whole pesos'))),
  redirect_link: z.optional(z.url({ protocol: /^https?$/ })),
  expires_at: z.optional(Timestamp),
  shopper: z.optional(
    z.object({ first_name: ShopperText, last_name: ShopperText, email: ShopperText, phone: ShopperText, id_number: ShopperText, id_type: ShopperText }),
  ),
});
export type CreateStoreLinkBody = z.output<typeof CreateStoreLinkBodySchema>;

/** `POST /v1/stores/me/links` 201 `data`: `url` is serve's hosted page for the link. */
export const CreatedStoreLinkSchema = z.object({ hash: z.string(), url: z.string(), expires_at: z.nullable(Timestamp) });

/** `GET /v1/stores/me/orders/{id_order}` `data`. */
export const StoreOrderSchema = z.object({
  id_order: PositiveId,
  id_external: z.nullable(z.string()),
  status: OrderStatusSchema,
  amount: z.number(),
  currency: z.string(),
  link: z.string(),
  reference: z.string(),
});

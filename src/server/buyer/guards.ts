/**
 * What the handler checks before it lets a buyer request reach the service: the abuse limits (limits.ts) and the
 * merchant's bot check. Run only for new work: a replayed Idempotency-Key never gets here.
 */
import { botCheckHeader, otpTimeoutMs, type CheckoutOrderInput } from '../../contract/index.js';
import type { ClaimStore } from '../once/claims.js';
import { clientAddressOf, type ClientAddressOptions } from '../http/client-address.js';
import { CheckoutHttpError } from '../http/errors.js';
import type { Incoming } from '../http/incoming.js';
import { documentForLimits, enforce, phoneForLimits, pseudonym, type LimitsPlan } from '../limits/limits.js';
import { storeCall } from '../once/exactly-once.js';

/** What the bot check is given: the token the page handed the element (`bot-check` attribute), and the request. */
export interface BotCheckInput {
  token: string | null;
  request: Request;
  hash: string;
  clientAddress: string | undefined;
}

/** Resolves true to let the order be created; false (or a throw) refuses with 403 BOT_CHECK_FAILED. */
export type BotCheck = (input: BotCheckInput) => boolean | Promise<boolean>;

export interface Guards {
  /** The client address the per-address counts use (client-address.ts). */
  address(request: Incoming): string | undefined;
  /** Before a new order: the bot check, then orders per address, link, phone and document. */
  beforeCreate(request: Incoming, hash: string, body: CheckoutOrderInput): Promise<void>;
  /** After an SMS-code order is created: which document its codes count against. */
  created(idOrder: number, body: CheckoutOrderInput): void;
  beforeCode(request: Incoming, idOrder: number): Promise<void>;
  beforeLookup(request: Incoming): Promise<void>;
  /** Before a link is looked up (`resolveLink`, which may ask the shop's app): links per address. */
  beforeLink(request: Incoming): Promise<void>;
  beforeCancel(request: Incoming): Promise<void>;
}

export interface GuardDeps extends ClientAddressOptions {
  plan: LimitsPlan | undefined;
  botCheck: BotCheck | undefined;
  store: ClaimStore;
  /** Keys the pseudonyms of phones and documents. */
  secret: () => Promise<string>;
}

const documentOfOrder = (idOrder: number) => `code-document:${idOrder}`;

export function checkoutGuards(deps: GuardDeps): Guards {
  const { plan } = deps;
  const address = (request: Incoming) => clientAddressOf(request, deps);
  const count = storeCall<number>;
  const documentKey = async (body: CheckoutOrderInput) => pseudonym(await deps.secret(), 'document', documentForLimits(body.shopper.id_number));

  return {
    address,

    async beforeCreate(request, hash, body) {
      const clientAddress = address(request);
      if (deps.botCheck) {
        const token = request.headers.get(botCheckHeader);
        const passed = await Promise.resolve()
          .then(() => deps.botCheck?.({ token, request: request.request, hash, clientAddress }))
          .catch(() => false);
        if (passed !== true) throw CheckoutHttpError.of('BOT_CHECK_FAILED');
      }
      if (!plan) return;
      const phone = await pseudonym(await deps.secret(), 'phone', phoneForLimits(body.shopper.phone_number));
      const document = await documentKey(body);
      // Address and link first: a flood they refuse never creates a counter per phone or document (kept up to a
      // day), so Redis memory stays bounded by the per-link limit. Two store round trips per create that passes.
      await enforce(
        plan,
        [
          { ordersPerAddress: clientAddress, ordersPerLink: hash },
          { ordersPerPhone: phone, ordersPerPhoneDay: phone, ordersPerDocument: document, ordersPerDocumentDay: document },
        ],
        count,
      );
    },

    created(idOrder, body) {
      if (!plan) return;
      // Kept beside the claims for as long as a code can be entered; lost, only the document's count is skipped.
      void documentKey(body)
        .then((document) => (document ? deps.store.claim(documentOfOrder(idOrder), document, otpTimeoutMs + 60_000) : undefined))
        .catch(() => {});
    },

    async beforeCode(request, idOrder) {
      if (!plan) return;
      const view = await storeCall(() => deps.store.inspect(documentOfOrder(idOrder))).catch(() => undefined);
      const document = view && view.state !== 'free' ? view.digest : undefined;
      await enforce(plan, { codesPerOrder: String(idOrder), codesPerDocument: document, codesPerAddress: address(request) }, count);
    },

    async beforeLookup(request) {
      await enforce(plan, { lookupsPerAddress: address(request) }, count);
    },

    async beforeLink(request) {
      await enforce(plan, { linksPerAddress: address(request) }, count);
    },

    async beforeCancel(request) {
      await enforce(plan, { cancelsPerAddress: address(request) }, count);
    },
  };
}

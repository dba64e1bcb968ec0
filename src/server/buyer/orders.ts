/** Merchant API orders (`GET /orders/{id}`, `POST /orders`) as the buyer sees them: a CheckoutOrder and its `next_action`. */
import {
  CancelReasonSchema,
  otpLength,
  otpMaxAttempts,
  otpTimeoutMs,
  pushApprovalTimeoutMs,
  transferTimeoutMs,
  type CheckoutGateway,
  type CheckoutOrder,
  type CreatedOrder,
  type GatewayKind,
  type NextAction,
  type OrderDetails,
} from '../../contract/index.js';
import { blockNameOf, gatewayKindOf } from './gateways.js';

type GatewayBlock = NonNullable<OrderDetails['payment_gateway']>;

/** Names shown when the order alone has to say which gateway it is (no discovery call on every poll). */
const defaultNames: Record<GatewayKind, string> = { push: 'Nequi', otp: 'Daviplata', transfer: 'Bre-B', card: 'Tarjeta' };
const defaultIds: Record<GatewayKind, number> = { push: 1, otp: 2, transfer: 9, card: 4 };
const timeoutOf: Record<GatewayKind, number> = { push: pushApprovalTimeoutMs, otp: otpTimeoutMs, transfer: transferTimeoutMs, card: 0 };

/** Masks all but the last four digits, in case a merchant API ever sends the phone unmasked. */
export function maskPhoneHint(phone: string): string {
  return phone.replace(/\d(?=(?:\D*\d){4})/g, '*');
}

function kindOfBlock(block: GatewayBlock | undefined): GatewayKind | undefined {
  if (!block) return undefined;
  return (Object.keys(blockNameOf) as GatewayKind[]).find((kind) => block[blockNameOf[kind]] !== undefined);
}

/** Which gateway an order went through: the one it was created with, else what the order itself says. */
export function gatewayOfOrder(details: OrderDetails, known: readonly CheckoutGateway[] = []): CheckoutOrder['gateway'] | undefined {
  const method = details.payment_method;
  const byId = method?.id_payment_gateway !== undefined ? known.find((g) => g.id_payment_gateway === method.id_payment_gateway) : undefined;
  if (byId) return { id_payment_gateway: byId.id_payment_gateway, name: byId.name, kind: byId.kind };
  const kind =
    kindOfBlock(details.payment_gateway) ??
    (method ? gatewayKindOf({ id_payment_gateway: method.id_payment_gateway ?? 0, name: method.gateway }) : undefined);
  if (!kind) return undefined;
  const byKind = known.find((g) => g.kind === kind);
  if (byKind) return { id_payment_gateway: byKind.id_payment_gateway, name: byKind.name, kind };
  return { id_payment_gateway: method?.id_payment_gateway ?? defaultIds[kind], name: defaultNames[kind], kind };
}

export interface OrderView {
  details: OrderDetails;
  gateway: CheckoutOrder['gateway'];
  /** The `POST /orders` answer, whose gateway block (QR, key, masked phone) wins over the details'. */
  created?: CreatedOrder | undefined;
  description?: string | undefined;
}

/** The buyer's view of a merchant order. */
export function toCheckoutOrder({ details, gateway, created, description }: OrderView): CheckoutOrder {
  // No reason is the common case: it is null without a parse (a failed one, building its issues) to say so.
  const cancel = details.cancel_reason == null ? undefined : CancelReasonSchema.safeParse(details.cancel_reason);
  return {
    id_order: details.id_order,
    status: details.status,
    amount: details.total,
    currency: details.currency,
    ...((details.description ?? description) !== undefined ? { description: details.description ?? description } : {}),
    gateway,
    created_at: details.purchase_date,
    confirmed_at: details.confirmed_at ?? null,
    cancel_reason: cancel?.success ? cancel.data : null,
    next_action: nextActionOf({ details, gateway, created }),
  };
}

/** What the buyer does next; null once the order no longer waits for the buyer. */
export function nextActionOf({ details, gateway, created }: OrderView): NextAction | null {
  if (details.status !== 'pending' && details.status !== 'processing') return null;
  const block: GatewayBlock = { ...details.payment_gateway, ...created?.payment_gateway };
  const expiresMs = Date.parse(details.expires_at ?? created?.expires_at ?? '') || Date.parse(details.purchase_date) + timeoutOf[gateway.kind];
  const expires_at = new Date(expiresMs).toISOString();
  switch (gateway.kind) {
    case 'push':
      return { type: 'approve_push', phone_hint: maskPhoneHint(block.nequi?.phone_number ?? ''), expires_at };
    case 'otp':
      return { type: 'enter_otp', length: otpLength, expires_at, attempts_left: block.daviplata?.attempts_left ?? otpMaxAttempts };
    case 'transfer': {
      const breb = block.breb;
      if (!breb?.key) return null;
      return {
        type: 'transfer',
        key: breb.key,
        ...(breb.qr_data ? { qr_data: breb.qr_data } : {}),
        ...(breb.qr_code ? { qr_png: breb.qr_code } : {}),
        expires_at,
      };
    }
    case 'card':
      return block.stripe?.url ? { type: 'redirect', url: block.stripe.url } : null;
  }
}

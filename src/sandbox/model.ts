/** The sandbox's records. Shapes the service exposes come from src/contract; these are the rows behind them. */
import type {
  CancelReason,
  GatewayKind,
  OrderStatus,
  PartnerConfigurableEvent,
  SandboxFault,
  Shopper,
} from '../contract/index.js';

export interface SandboxGateway {
  id_payment_gateway: number;
  name: string;
  kind: GatewayKind;
  /** The lowercase gateway identifier of `payment_method.gateway` and the order's gateway block. */
  gateway: 'nequi' | 'daviplata' | 'breb' | 'stripe';
  required_fields: string[];
  /** Accepted `id_national_document_type`s. */
  id_types: number[];
  min_amount: number;
  max_amount: number;
  currencies: string[];
  /** Path under the sandbox origin, so nothing loads from the internet. */
  icon_path: string;
  /** Card payments are not available through `POST /orders` (hosted page only). */
  direct_orders: boolean;
}

export interface SandboxStore {
  id_store: number;
  store_name: string;
  merchant_key: string;
  external_id: string | null;
  external_store_id: string | null;
  currency: string;
  /** Signs events of a store that no partner is connected to (its own direct integration). */
  signing_secret: string;
  active: boolean;
}

export interface WebhookSubscription {
  url: string | null;
  events: PartnerConfigurableEvent[];
  signing_enabled: boolean;
}

export interface SandboxPartner {
  id_partner: number;
  name: string;
  api_key: string;
  api_secret: string;
  signing_secret: string;
  webhook: WebhookSubscription;
  /** Order events the service operator enabled on the account (not changeable through PATCH). */
  operator_events: ('order_payment' | 'link_paid' | 'order_cancelled' | 'order_refunded')[];
  active: boolean;
}

export interface SandboxIntegration {
  id_integration: number;
  id_partner: number;
  id_store: number;
  active: boolean;
  /** Each integration carries its own copy; PATCH /partners/webhook updates them all. */
  webhook: WebhookSubscription;
  created_at: number;
}

export interface SandboxLink {
  payment_link_id: number;
  hash: string;
  id_store: number;
  description: string;
  /** Absent: a dynamic link, where the buyer types the amount. */
  amount: number | undefined;
  currency: string;
  order_key: string | null;
  redirect_link: string | null;
  redirect_link_cancel: string | null;
  redirect_link_failure: string | null;
  collect_shopper_data: boolean;
  /**
   * An image of what is paid for, for the hosted page's link preview (`og:image`): the contract's optional
   * `image_url`. The live service's link API has no such field, so nothing sets it but a test or a plugin's own state.
   */
  image_url?: string | null;
  created_at: number;
  expires_at: number | null;
  paid_at: number | null;
  /** Links made in the dashboard emit no webhooks. */
  source: 'api' | 'dashboard';
  id_partner: number | null;
}

/** Where an order came from: API orders emit webhooks, dashboard orders none. */
export type OrderSource = 'api' | 'checkout' | 'dashboard';

export interface SandboxOrder {
  id_order: number;
  id_store: number;
  id_external: string | null;
  status: OrderStatus;
  amount: number;
  currency: string;
  description: string;
  id_payment_gateway: number;
  shopper: Shopper;
  source: OrderSource;
  id_partner: number | null;
  payment_link_id: number | null;
  created_at: number;
  confirmed_at: number | null;
  cancelled_at: number | null;
  refunded_at: number | null;
  cancel_reason: CancelReason | null;
  expires_at: number | null;
  redirect_link: string | null;
  redirect_link_cancel: string | null;
  redirect_link_failure: string | null;
  /** Buyer API only: proves the caller created the order (ids are sequential). */
  order_token: string | null;
  gateway_state: GatewayState;
}

export type GatewayState =
  | { kind: 'push'; phone: string; behaviour: 'wait' | 'auto_decline' | 'never_answer'; auto_decline_at: number | null }
  | { kind: 'otp'; code: string; attempts_left: number }
  | { kind: 'transfer'; key: string; qr_data: string; qr_png: string }
  | { kind: 'card'; session: string; return_url: string | null; outcome: 'paid' | 'declined' | null };

/** A fault of `POST /sandbox/faults` with its path glob compiled once. */
export interface ActiveFault {
  fault: SandboxFault;
  pattern: RegExp;
}

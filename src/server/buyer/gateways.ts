/**
 * Gateway discovery (`GET /orders/paymentGateways`) as the checkout shows it. The live items carry only
 * id, name, required_fields and icon, so `kind`, accepted `id_types` and amount limits are filled in here.
 */
import {
  GatewayKindSchema,
  walletDocumentTypes,
  type CheckoutGateway,
  type DocumentType,
  type GatewayKind,
  type PaymentGateway,
} from '../../contract/index.js';

/** The service publishes no amount limits; a gateway without its own accepts any positive whole amount. */
export const defaultAmountLimits = { min_amount: 1, max_amount: Number.MAX_SAFE_INTEGER } as const;

/** Ids seen in the live documentation's examples (placeholders there; used only when the name says nothing). */
const kindById: Record<number, GatewayKind> = { 1: 'push', 2: 'otp', 9: 'transfer' };

/**
 * The kind of a discovered gateway: its own valid `kind` field, else its name
 * (Nequi → push, Daviplata → otp, Bre-B → transfer, Stripe/card/tarjeta → card), else its id (1, 2, 9).
 */
export function gatewayKindOf(gateway: Pick<PaymentGateway, 'id_payment_gateway' | 'name'> & { kind?: unknown }): GatewayKind | undefined {
  const own = GatewayKindSchema.safeParse(gateway.kind);
  if (own.success) return own.data;
  const name = gateway.name.toLowerCase();
  if (name.includes('nequi')) return 'push';
  if (name.includes('daviplata')) return 'otp';
  if (/bre-?b/.test(name)) return 'transfer';
  if (/stripe|card|tarjeta/.test(name)) return 'card';
  return kindById[gateway.id_payment_gateway];
}

/** The lowercase gateway identifier of a kind, as the service names its `payment_gateway` blocks. */
export const blockNameOf: Record<GatewayKind, string> = { push: 'nequi', otp: 'daviplata', transfer: 'breb', card: 'stripe' };

const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/**
 * Discovered gateways the handler can drive, for a link in `currency`. Card is left out: it is not
 * available through the direct order API. Unknown kinds are left out too.
 */
export function toCheckoutGateways(gateways: readonly PaymentGateway[], documentTypes: readonly DocumentType[], currency: string): CheckoutGateway[] {
  const allTypes = documentTypes.map((d) => d.id_national_document_type);
  const walletTypes = documentTypes.filter((d) => (walletDocumentTypes as readonly string[]).includes(d.type)).map((d) => d.id_national_document_type);
  const out: CheckoutGateway[] = [];
  for (const g of gateways) {
    const kind = gatewayKindOf(g);
    if (!kind || kind === 'card') continue;
    // Items without `currencies` are the Colombian wallets and transfer: COP only.
    const currencies = Array.isArray(g.currencies) ? (g.currencies as unknown[]) : ['COP'];
    if (!currencies.includes(currency)) continue;
    const ownTypes = Array.isArray(g.id_types) ? (g.id_types as unknown[]).filter((t): t is number => Number.isInteger(t) && (t as number) >= 1) : undefined;
    out.push({
      id_payment_gateway: g.id_payment_gateway,
      name: g.name,
      kind,
      required_fields: g.required_fields,
      // Nequi accepts every Colombian document; the digital wallet and the transfer only CC, CE, TI.
      id_types: ownTypes ?? (kind === 'push' ? allTypes : walletTypes),
      min_amount: numberOr(g.min_amount, defaultAmountLimits.min_amount),
      max_amount: numberOr(g.max_amount, defaultAmountLimits.max_amount),
      icon: g.icon,
    });
  }
  return out;
}

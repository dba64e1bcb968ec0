/**
 * Gateway simulators (docs/site/sandbox/index.md): what starting a payment does per kind, and what the buyer
 * does next. Push waits for an approval, otp for the SMS code, transfer for the bank, card for the card page.
 */
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { otpMaxAttempts, otpTimeoutMs, pushApprovalTimeoutMs, transferTimeoutMs, type NextAction } from '../../contract/index.js';
import type { GatewayState, SandboxGateway, SandboxOrder, SandboxStore } from '../model.js';
import { transferQrPayload } from './emvco.js';

/** Card sessions are the card provider's; the sandbox lets one run 30 minutes. */
export const cardSessionTimeoutMs = 30 * 60 * 1000;
/** The code the sandbox "sends by SMS"; 000000 and 111111 are accepted too. */
export const sandboxOtpCode = '123456';
export const acceptedOtpCodes: readonly string[] = ['123456', '000000', '111111'];

export const expiryFor = (kind: SandboxGateway['kind']) =>
  ({ push: pushApprovalTimeoutMs, otp: otpTimeoutMs, transfer: transferTimeoutMs, card: cardSessionTimeoutMs })[kind];

/** `+57 300-123 4567` → `3001234567`; null unless a Colombian mobile number (`^3\d{9}$`). */
export function normalizeMobile(raw: string | undefined): string | null {
  if (!raw) return null;
  let digits = raw.replace(/[\s\-().]/g, '');
  if (digits.startsWith('+57')) digits = digits.slice(3);
  else if (digits.startsWith('57') && digits.length === 12) digits = digits.slice(2);
  return /^3\d{9}$/.test(digits) ? digits : null;
}

export const maskPhone = (phone: string) => `${'*'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;

export interface GatewayStart {
  gateway: SandboxGateway;
  store: SandboxStore;
  idOrder: number;
  amount: number;
  now: number;
  phone: string | null;
  returnUrl: string | null;
  pushAutoDeclineMs: number;
}

/** The simulator state of a new order. Synchronous, so order creation is atomic. */
export function startGateway(start: GatewayStart): GatewayState {
  const { gateway } = start;
  switch (gateway.kind) {
    case 'push': {
      const phone = start.phone ?? '';
      const behaviour = phone.endsWith('0002') ? 'auto_decline' : phone.endsWith('0003') ? 'never_answer' : 'wait';
      return { kind: 'push', phone, behaviour, auto_decline_at: behaviour === 'auto_decline' ? start.now + start.pushAutoDeclineMs : null };
    }
    case 'otp':
      return { kind: 'otp', code: sandboxOtpCode, attempts_left: otpMaxAttempts };
    case 'transfer': {
      const key = `BREB-SBX-${String(start.idOrder).padStart(6, '0')}-${randomBytes(3).toString('hex').toUpperCase()}`;
      const qr_data = transferQrPayload({ transferKey: key, amount: start.amount, storeName: start.store.store_name, orderReference: `ORDER-${start.idOrder}` });
      return { kind: 'transfer', key, qr_data, qr_png: '' };
    }
    case 'card':
      return { kind: 'card', session: randomBytes(18).toString('base64url'), return_url: start.returnUrl, outcome: null };
  }
}

/** Renders the transfer QR once (PNG, base64 without the data: prefix, as the live service sends it). */
export async function ensureQrPng(order: SandboxOrder): Promise<void> {
  const state = order.gateway_state;
  if (state.kind !== 'transfer' || state.qr_png) return;
  const png = await QRCode.toBuffer(state.qr_data, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 256 });
  state.qr_png = png.toString('base64');
}

export const cardPagePath = (session: string) => `/sandbox/card/${encodeURIComponent(session)}`;

/** What the buyer does next; null once the order is no longer waiting for the buyer. */
export function nextActionOf(order: SandboxOrder, origin: string, iso: (ms: number) => string): NextAction | null {
  if (order.status !== 'processing' && order.status !== 'pending') return null;
  const expires_at = iso(order.expires_at ?? 0);
  const state = order.gateway_state;
  switch (state.kind) {
    case 'push':
      return { type: 'approve_push', phone_hint: maskPhone(state.phone), expires_at };
    case 'otp':
      return { type: 'enter_otp', length: 6, expires_at, attempts_left: state.attempts_left };
    case 'transfer':
      return { type: 'transfer', key: state.key, qr_data: state.qr_data, ...(state.qr_png ? { qr_png: state.qr_png } : {}), expires_at };
    case 'card':
      return { type: 'redirect', url: origin + cardPagePath(state.session) };
  }
}

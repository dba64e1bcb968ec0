/** EMVCo merchant-presented QR payloads (TLV) with the CRC-16/CCITT-FALSE of tag 63. */

/** CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final xor. Check value of "123456789" is 0x29B1. */
export function crc16ccittFalse(text: string): number {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** One TLV field: two-digit id, two-digit length, value. Values are kept ASCII so length counts bytes. */
export function tlv(id: string, value: string): string {
  const ascii = toAscii(value);
  if (ascii.length > 99) throw new RangeError(`EMVCo field ${id} is longer than 99 characters`);
  return `${id}${String(ascii.length).padStart(2, '0')}${ascii}`;
}

function toAscii(value: string): string {
  // Store names like "Tienda Ñandú" must still fit the byte-counted length.
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '');
}

export interface TransferQrInput {
  transferKey: string;
  amount: number;
  storeName: string;
  orderReference: string;
  city?: string;
  merchantCategoryCode?: string;
}

/** The Bre-B transfer payload the QR encodes: dynamic (01 = "12"), COP (53 = "170"), CRC last. */
export function transferQrPayload(input: TransferQrInput): string {
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'CO.COM.BREB') + tlv('01', input.transferKey)) +
    tlv('52', input.merchantCategoryCode ?? '5999') +
    tlv('53', '170') +
    tlv('54', formatAmount(input.amount)) +
    tlv('58', 'CO') +
    tlv('59', toAscii(input.storeName).slice(0, 25) || 'COMERCIO') +
    tlv('60', input.city ?? 'BOGOTA') +
    tlv('62', tlv('05', input.orderReference.slice(0, 25)));
  const withCrcHeader = `${body}6304`;
  return withCrcHeader + crcHex(withCrcHeader);
}

export const crcHex = (text: string) => crc16ccittFalse(text).toString(16).toUpperCase().padStart(4, '0');

function formatAmount(amount: number): string {
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
}

/** Reads top-level (or nested) TLV fields; throws on a truncated payload. */
export function parseTlv(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length) || at + 4 + length > payload.length) throw new SyntaxError(`bad TLV at ${at}`);
    fields.set(id, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** True when tag 63 holds the CRC of everything before its value. */
export function hasValidCrc(payload: string): boolean {
  return payload.length > 8 && payload.slice(-8, -4) === '6304' && crcHex(payload.slice(0, -4)) === payload.slice(-4);
}

import type { GatewayKind } from '../contract/gateways.js';
import type { BeforeOrderMessageKey, MessageKey } from '../flow/types.js';

/** The catalogs this package ships; `es` (Colombian Spanish) is the default. */
export const locales = ['es', 'en'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'es';

/** Parameters a rule message may use; money values arrive already formatted. */
export interface RuleParams {
  min?: string;
  max?: string;
  length?: number;
}

/** The flow messages the screens before the order show: amount, method and error screens. */
export type FirstMessageKey = BeforeOrderMessageKey;

/**
 * The strings of the first screens (loading, error, amount, method) and the frame: what the
 * element's first script carries. `Messages` adds the later screens; `es` ships them in the later steps' chunk.
 */
export interface FirstMessages {
  locale: Locale;
  /** Accessible name of the whole checkout region. */
  checkoutLabel: string;
  loading: string;
  total: string;
  back: string;
  continue: string;
  amount: {
    title: string;
    label: string;
    range: (min: string, max: string) => string;
    /** The `amounts` presets' group. */
    presets: string;
  };
  method: {
    title: string;
    legend: string;
    /** When the link has methods but none takes the amount (a link with none is the error screen). */
    noneForAmount: (amount: string) => string;
    /** What each kind of method is, under its name (`name`: the gateway's, e.g. Nequi, Bre-B). */
    kinds: Record<GatewayKind, (name: string) => string>;
  };
  error: {
    title: string;
    retry: string;
  };
  /** Said, not shown, before each field's error message (GOV.UK's hidden "Error:"). */
  errorPrefix: string;
  rules: Pick<RuleMessages, FirstMessageKey>;
}

/**
 * Every string a buyer can see. A catalog missing a key fails type-checking;
 * parameters and plurals are functions, so word order stays each language's own.
 */
export interface Messages extends FirstMessages {
  /** Shown once the whole catalog is here (a moment after the first screen): the page passed a merchant key. */
  merchantKeyRefused: string;
  /** A link that cannot be paid (not found, already paid, expired): a rare screen, so not in the first script. */
  link: {
    /** Back to the merchant's site from a link that cannot be paid (`store-url`, else the link's `redirect_link`). */
    backToStore: (store: string | null) => string;
    notFoundTitle: string;
    notFoundBody: string;
    paidTitle: string;
    paidBody: string;
    expiredTitle: string;
    expiredBody: string;
  };
  /**
   * An amount as a screen reader should say it ("50.000 pesos"), since Spanish voices read `$` as "dólar". In the
   * whole catalog only: the first screens show the plain format until it arrives, a moment after the first paint.
   */
  sayMoney: (amount: number, currency: string) => string;
  /** The pay button, with the formatted amount. */
  pay: (amount: string) => string;
  creatingOrder: string;
  cancel: string;
  cancelling: string;
  waiting: string;
  /** Reading a saved order again while the service fails for now (back from the card page, or any other). */
  resuming: { card: string; order: string };
  details: {
    title: string;
    idType: string;
    idTypeChoose: string;
    idNumber: string;
    idNumberHint: string;
    phone: string;
    /** Names the wallet (the gateway's name): the phone registered in it. */
    phoneHint: (wallet: string) => string;
    /** The phone asked as the buyer's contact, on a method that does not pay from it. */
    contactPhoneHint: string;
    errorSummary: (count: number) => string;
    firstName: string;
    lastName: string;
    email: string;
    changeMethod: string;
    /**
     * Ley 1581: above the pay button (`privacy-url`), what becomes of the buyer's data; `[before, link, after]`, the
     * middle words the link to the store's policy.
     */
    dataNotice: (store: string) => readonly [string, string, string];
    /** The consent checkbox's label (`consent="required"`), in the same three pieces (a label, so no final stop). */
    consentLabel: (store: string) => readonly [string, string, string];
    /** Said after a link that opens in a new tab (after a comma). */
    newTab: string;
  };
  push: {
    /** Push approval names the wallet (the gateway's name), and says "celular"/"phone" only. */
    title: (wallet: string) => string;
    steps: (wallet: string) => readonly [string, string, string];
    /** `phone`: the masked phone on screen, or `phoneEnding`'s words for screen readers. */
    sentTo: (phone: string) => string;
    /** The masked phone as said: its last digits, never "asterisco" six times. */
    phoneEnding: (lastDigits: string) => string;
    changeNumber: string;
  };
  otp: {
    title: string;
    steps: (wallet: string) => readonly [string, string, string];
    label: string;
    hint: (wallet: string) => string;
    submit: string;
    submitting: string;
    attemptsLeft: (count: number) => string;
    newCode: string;
    /** Said once the new code's order exists. */
    newCodeSent: string;
  };
  transfer: {
    /** Names the transfer network (the gateway's name, e.g. Bre-B). */
    title: (network: string) => string;
    instructions: string;
    keyLabel: string;
    copy: string;
    /** Shown beside the button and said once: what was copied. */
    copied: string;
    /** Shown beside the button, said once and tied to it: the key is selected to copy by hand. */
    copyFailed: string;
    /** The QR's text alternative: names the network; the key is on screen beside it, not repeated. */
    qrAlt: (network: string) => string;
    qrLoading: string;
    qrUnavailable: string;
  };
  card: {
    title: string;
    instructions: string;
    go: string;
    returning: string;
    /** Back from the card page and the order is still open: what the buyer can do. */
    notYet: string;
    goBack: string;
  };
  countdown: {
    /** Visible label before `4:59`. */
    label: string;
    /** Announced at milestones only: 5 min, 1 min, 30 s (the end is the expired screen's heading). */
    milestone: (secondsLeft: number) => string;
    /** Announced when a countdown starts: the time there is to pay. */
    start: (secondsLeft: number) => string;
    /** The visible `4:59` as a screen reader should say it, not a clock time. */
    spoken: (minutes: number, seconds: number) => string;
  };
  /** The paid receipt (result.paidTitle, paidBody, method and orderId too). */
  receipt: {
    /** The amount paid: the header and the receipt never say "Total a pagar" once paid. */
    totalPaid: string;
    /** The service's own reference of the payment, when it gives one. */
    serviceReference: string;
    dateTime: string;
    print: string;
    /** Dynamic links only: pay the link again, deliberately. */
    newPayment: string;
  };
  result: {
    paidTitle: string;
    paidBody: string;
    method: string;
    orderId: string;
    declinedTitle: string;
    declinedBody: string;
    tryAgain: string;
    cancelledTitle: string;
    cancelledBody: string;
    expiredTitle: string;
    expiredBody: string;
    newAttempt: string;
    otpAttemptsBody: string;
  };
  /** The flow's messages (input rules, notices, errors), by `MessageKey`. */
  rules: RuleMessages;
}

/** Whether a catalog is a whole one, not only the first screens' strings. */
export function isWholeCatalog(messages: FirstMessages): messages is Messages {
  return 'pay' in messages;
}

/** One message per flow message key (buyer input rules, notices, error screens). */
export type RuleMessages = Record<MessageKey, (params: RuleParams) => string>;

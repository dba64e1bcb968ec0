import { LitElement } from 'lit';
import type { Environment } from '../client/send.js';
import type { ShopperPrefill } from './internal/prefill-of.js';

/**
 * What a page sets on `<pay-checkout>`: every attribute and property, with the documentation the manifest and the
 * framework typings are read from. The element (pay-checkout.ts) is the behaviour over them; the manifest shows them
 * as its own (custom-elements-manifest.config.mjs).
 */
export class PayCheckoutSettings extends LitElement {
  // Declared here rather than with decorators: the first script then carries no decorator helpers.
  static override properties = {
    link: {},
    apiBase: { attribute: 'api-base' },
    environment: {},
    locale: {},
    returnUrl: { attribute: 'return-url' },
    botCheck: { attribute: 'bot-check' },
    storeUrl: { attribute: 'store-url' },
    idType: { attribute: 'id-type' },
    idNumber: { attribute: 'id-number' },
    phone: {},
    email: {},
    firstName: { attribute: 'first-name' },
    lastName: { attribute: 'last-name' },
    shopper: { attribute: false },
    methods: {},
    amounts: {},
    privacyUrl: { attribute: 'privacy-url' },
    consent: {},
    // `useDefault`: the default `auto` is not written onto the host, so server-rendered markup and the client agree.
    theme: { reflect: true, useDefault: true },
    merchantKey: { attribute: 'merchant-key' },
    linkData: { attribute: false },
    keyRefused: { state: true },
  };

  /** The payment link's hash. */
  link = '';

  /** The buyer API's base URL ending in `/v1` (the sandbox, a merchant proxy); defaults to production's. */
  apiBase: string | undefined;

  /** `production` or `development`: picks the default `api-base`. */
  environment: Environment = 'production';

  /** `es` (default) or `en`; without it, the closest `lang` in the page. */
  locale: string | undefined;

  /** Where the card provider sends the buyer back; defaults to this page. */
  returnUrl: string | undefined;

  /** A bot-check token (Turnstile, hCaptcha) from the page, sent with each new order as `X-Bot-Check`. */
  botCheck: string | undefined;

  /** The receipt's way back to the store; defaults to the link's `redirect_link` when the service gives one. */
  storeUrl: string | undefined;

  /**
   * The buyer's document type, if the store knows it: its code (`CC`, `CE`, `TI`, …) or numeric id. Like every
   * prefill, shown filled and editable on the details screen, checked by the same rules as typed values, sent with
   * the order, and never stored by the element. Read each time the details screen opens.
   */
  idType: string | undefined;

  /** The buyer's document number, if the store knows it (dots and spaces allowed). */
  idNumber: string | undefined;

  /** The buyer's mobile number, if the store knows it (10 digits starting with 3; `+57`, spaces and dashes allowed). */
  phone: string | undefined;

  /** The buyer's email, if the store knows it. */
  email: string | undefined;

  /** The buyer's first name, if the store knows it. */
  firstName: string | undefined;

  /** The buyer's last name, if the store knows it. */
  lastName: string | undefined;

  /**
   * The same prefill as one object, for frameworks: `{ id_type, id_number, phone_number, email, first_name,
   * last_name }`; an attribute given too wins over its field here.
   */
  shopper: ShopperPrefill | null | undefined;

  /**
   * The methods to show, in order, space-separated: kinds (`push`, `otp`, `transfer`, `card`) or names (`nequi`,
   * `daviplata`, `breb`, `card`). Methods not listed are not shown; an unknown word is ignored with a console warning;
   * a list that leaves none shows every method, and warns.
   */
  methods: string | undefined;

  /**
   * Preset amounts for a dynamic link, whole pesos, space-separated (`"20000 50000 100000"`): shown as choices beside
   * the amount field; a preset none of the link's methods takes is not shown.
   */
  amounts: string | undefined;

  /**
   * The store's personal-data policy (Ley 1581 de 2012): the details screen says, above the pay button, that the
   * buyer's data is processed under it, with a link (a new tab). `https:` only (`http:` only on loopback).
   */
  privacyUrl: string | undefined;

  /** `required`: the buyer must check a personal-data consent box before paying; unchecked, no order is made. */
  consent: 'required' | undefined;

  /** `light`, `dark`, or `auto` (follows the device). */
  theme: 'light' | 'dark' | 'auto' = 'auto';

  /**
   * The link answer (`GET /checkout/links/{hash}`'s `data`, or the whole `{ "data": … }`) the page's server already
   * fetched, so the element makes no link request; a `<script type="application/json">` child does the same. Used
   * only if it matches the contract, is for `link` and has not expired; otherwise the element asks the service.
   */
  linkData: unknown;

  /**
   * Refused: a merchant key is a server secret and must never reach a page. Setting
   * it logs an error and shows a message; the value is dropped and never sent.
   */
  set merchantKey(value: string | null | undefined) {
    if (value === null || value === undefined || value === '') return;
    this.keyRefused = true;
    console.error('<pay-checkout>: merchant key ignored. It is a server secret: remove it from the page and rotate it.');
  }
  get merchantKey(): string | undefined {
    return undefined;
  }

  /** A merchant key was set on the page (refused): the element says so on screen. */
  protected keyRefused = false;
}

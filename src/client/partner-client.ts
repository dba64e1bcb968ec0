import { partnerKeyHeader, partnerSecretHeader } from '../contract/headers.js';
import {
  DisconnectedStoreSchema,
  OnboardingLinkSchema,
  PartnerEventListSchema,
  PartnerWebhookConfigSchema,
  PatchWebhookBodySchema,
  PatchWebhookResultSchema,
  StoreListSchema,
  WebhookTestResultSchema,
} from '../contract/partners.js';
import type {
  PartnerWebhookConfig,
  PatchWebhookBody,
  PatchWebhookResult,
  Store,
  WebhookTestResult,
} from '../contract/partners.js';
import type * as z from 'zod/mini';
import { HttpCore, checkRequest, pathId, requireText } from './http.js';
import type { CallOptions, ClientOptions } from './http.js';
import { checkKeyTarget } from './keys.js';
import { MerchantClient } from './merchant-client.js';
import { dialectNoter, type OnDialect } from './dialect.js';
import { send } from './send.js';
import { tolerantReader } from './tolerant-read.js';

export interface PartnerClientOptions extends ClientOptions {
  /** `X-API-Key`: identifies the partner. */
  apiKey: string;
  /** `X-API-Secret`: authenticates it. Server-side only. */
  apiSecret: string;
  /** Told once per client for each way the service answers differently from the contract (see MerchantClient). */
  onDialect?: OnDialect;
}

export type PartnerEvent = z.infer<typeof PartnerEventListSchema>[number];
export type DisconnectedStore = z.infer<typeof DisconnectedStoreSchema>;
export type OnboardingLink = z.infer<typeof OnboardingLinkSchema>;

/** The partner API (`/partners/*`), authorized by the partner key pair alone. */
export class PartnerClient {
  readonly #http: HttpCore;
  readonly #options: PartnerClientOptions;

  constructor(options: PartnerClientOptions) {
    this.#options = options;
    this.#http = new HttpCore(options, {
      [partnerKeyHeader]: requireText(options.apiKey, 'apiKey'),
      [partnerSecretHeader]: requireText(options.apiSecret, 'apiSecret'),
    }, send, tolerantReader(dialectNoter(options.onDialect)));
    checkKeyTarget(options.apiKey, 'apiKey', this.#http.baseUrl);
    checkKeyTarget(options.apiSecret, 'apiSecret', this.#http.baseUrl);
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /**
   * A merchant client for one connected store: every call carries `merchant-key`
   * plus this partner's pair as attribution. The merchant key selects the store.
   */
  forMerchant(merchantKey: string): MerchantClient {
    const { apiKey, apiSecret, ...shared } = this.#options;
    return new MerchantClient({ ...shared, merchantKey, partner: { apiKey, apiSecret } });
  }

  /** The account's webhook URL, events and whether deliveries are signed (the key itself is never returned). */
  async getWebhook(options: CallOptions = {}): Promise<PartnerWebhookConfig> {
    return this.#http.request({ method: 'GET', path: '/partners/webhook', schema: PartnerWebhookConfigSchema, wrapper: 'data-or-bare', signal: options.signal });
  }

  /** Changes the URL (https only) and/or the events; an omitted field stays as it is. */
  async updateWebhook(body: PatchWebhookBody, options: CallOptions = {}): Promise<PatchWebhookResult> {
    const payload = checkRequest(PatchWebhookBodySchema, body);
    return this.#http.request({ method: 'PATCH', path: '/partners/webhook', body: payload, schema: PatchWebhookResultSchema, wrapper: 'data', signal: options.signal });
  }

  /** Has the service POST a signed `test.ping` to the configured URL and report what it saw. */
  async testWebhook(options: CallOptions = {}): Promise<WebhookTestResult> {
    return this.#http.request({ method: 'POST', path: '/partners/webhook/test', schema: WebhookTestResultSchema, wrapper: 'data-or-bare', signal: options.signal });
  }

  /** The events `updateWebhook` accepts. */
  async events(options: CallOptions = {}): Promise<PartnerEvent[]> {
    return this.#http.request({ method: 'GET', path: '/partners/events', schema: PartnerEventListSchema, wrapper: 'data-or-bare', signal: options.signal });
  }

  /** The merchants connected to this partner. */
  async stores(options: CallOptions = {}): Promise<Store[]> {
    return this.#http.request({ method: 'GET', path: '/partners/stores', schema: StoreListSchema, wrapper: 'data', signal: options.signal });
  }

  /** Disconnects a merchant; resolves to `undefined` when the service answers 204. */
  async disconnectStore(idStore: number, options: CallOptions = {}): Promise<DisconnectedStore | undefined> {
    const path = `/partners/stores/${pathId(idStore, 'id_store')}`;
    return this.#http.request({ method: 'DELETE', path, schema: DisconnectedStoreSchema, wrapper: 'data', allowEmpty: true, signal: options.signal });
  }

  /** The link merchants sign up through: `{onboarding_url}?platform=NAME`. */
  async onboardingLink(options: CallOptions = {}): Promise<OnboardingLink> {
    return this.#http.request({ method: 'GET', path: '/partners/onboarding-link', schema: OnboardingLinkSchema, wrapper: 'data', signal: options.signal });
  }
}

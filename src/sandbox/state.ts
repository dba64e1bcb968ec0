/** The sandbox's in-memory state: fixtures plus everything created since the last reset. */
import type { DocumentType, SandboxReceivedWebhook } from '../contract/index.js';
import { fixtureDocumentTypes, fixtureGateways, fixtureIntegrations, fixtureLinks, fixturePartners, fixtureStores } from './fixtures.js';
import type { ActiveFault, SandboxGateway, SandboxIntegration, SandboxLink, SandboxOrder, SandboxPartner, SandboxStore } from './model.js';

export interface IdempotencyRecord {
  /** Canonical text of the body first sent with this key. */
  fingerprint: string;
  id_order: number;
}

export interface SandboxState {
  gateways: SandboxGateway[];
  documentTypes: DocumentType[];
  stores: SandboxStore[];
  partners: SandboxPartner[];
  integrations: SandboxIntegration[];
  links: Map<string, SandboxLink>;
  orders: Map<number, SandboxOrder>;
  /** Orders still pending or processing: the only ones expiry has to look at. */
  openOrders: Set<number>;
  /** `${hash}\n${Idempotency-Key}` → the order it created. */
  idempotency: Map<string, IdempotencyRecord>;
  /** `${id_store}\n${order_key}` → the order `POST /v1/orders` created with it. */
  orderKeys: Map<string, IdempotencyRecord>;
  /** Card page sessions → order id. */
  cardSessions: Map<string, number>;
  /** Local receivers that also get every webhook (POST /sandbox/forward). */
  forwardTargets: string[];
  /** What the built-in receiver (POST /sandbox/receiver) got, oldest first. */
  received: SandboxReceivedWebhook[];
  nextReceivedId: number;
  /** Fault modes (POST /sandbox/faults), in the order they were added; spent ones stay with `remaining` 0. */
  faults: ActiveFault[];
  nextFaultId: number;
  /** Earliest moment an open order may expire or decline by itself; sweeps before it cost nothing. */
  nextDeadline: number;
  nextOrderId: number;
  nextLinkId: number;
  nextStoreId: number;
  nextIntegrationId: number;
}

export function createState(now: number): SandboxState {
  const state = {} as SandboxState;
  resetState(state, now);
  return state;
}

/** Restores the fixtures in place, so every holder of the state object sees the reset. */
export function resetState(state: SandboxState, now: number): void {
  const links = fixtureLinks(now);
  const stores = fixtureStores();
  const integrations = fixtureIntegrations(now);
  Object.assign(state, {
    gateways: fixtureGateways(),
    documentTypes: fixtureDocumentTypes(),
    stores,
    partners: fixturePartners(),
    integrations,
    links: new Map(links.map((l) => [l.hash, l])),
    orders: new Map(),
    openOrders: new Set(),
    idempotency: new Map(),
    orderKeys: new Map(),
    cardSessions: new Map(),
    forwardTargets: [],
    received: [],
    nextReceivedId: 1,
    faults: [],
    nextFaultId: 1,
    nextDeadline: Number.POSITIVE_INFINITY,
    nextOrderId: 1,
    nextLinkId: links.length + 1,
    nextStoreId: stores.length + 1,
    nextIntegrationId: integrations.length + 1,
  } satisfies SandboxState);
}

export const storeByKey = (state: SandboxState, key: string) => state.stores.find((s) => s.merchant_key === key && s.active);
export const storeById = (state: SandboxState, id: number) => state.stores.find((s) => s.id_store === id);
export const gatewayById = (state: SandboxState, id: number) => state.gateways.find((g) => g.id_payment_gateway === id);
export const activeIntegration = (state: SandboxState, idPartner: number, idStore: number) =>
  state.integrations.find((i) => i.active && i.id_partner === idPartner && i.id_store === idStore);
/** The partner whose integration with the store is active (a store has at most one in the sandbox). */
export function partnerOfStore(state: SandboxState, idStore: number): { partner: SandboxPartner; integration: SandboxIntegration } | undefined {
  const integration = state.integrations.find((i) => i.active && i.id_store === idStore);
  const partner = integration && state.partners.find((p) => p.id_partner === integration.id_partner && p.active);
  return integration && partner ? { partner, integration } : undefined;
}

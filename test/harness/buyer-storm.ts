/**
 * The scenario as a merchant would see it: B buyers, each sending the same create C times at once (plus, for
 * some, a changed body under the same key), retrying on 409 IN_USE and 5xx as the element does, through a handler
 * origin. Orders are counted in the sandbox. In-doubt creates are settled the way a buyer would: by approving the
 * push on the phone (`/sandbox/orders/{id}/approve`), whose order_payment webhook reaches the handler.
 */
import { orderKeyFor, serverSecrets } from '../../src/server/secrets.js';

/** The one payment link every buyer pays. */
export const stormLink = 'camiseta-m';
const merchantKey = 'mk_test_demo';

export interface StormOptions {
  /** The handler's origin (a proxy in front of several instances, or one instance). */
  origin: string;
  /** The sandbox's origin, for its order list and control API. */
  sandboxOrigin: string;
  buyers?: number;
  copies?: number;
  /** Every Nth buyer also sends one changed body with the same key; 0 for none. */
  changedEvery?: number;
  /** A buyer still without an answer by then gives up (counted in `unanswered`). */
  deadlineMs?: number;
  /** Keeps keys apart between runs against one sandbox. */
  runId?: string;
  /** Retry on 409 IDEMPOTENCY_KEY_IN_USE and 5xx (the element's "try again"); off to measure a fleet as the issue did. */
  retry?: boolean;
  /** Buyers at once: the rest start as earlier ones finish (waves); default all of them. */
  waveSize?: number;
  /** A request unanswered this long is abandoned and counted in `hung` (then retried); default 60 s. */
  hangMs?: number;
  /** Hears every answer as it comes (status 0: no answer), e.g. to time a recovery. */
  onAnswer?: (status: number, at: number) => void;
}

export interface StormResult {
  buyers: number;
  requests: number;
  elapsedMs: number;
  /** Orders the sandbox holds for this run's keys. */
  orders: number;
  /** Keys with two or more orders: duplicates. */
  duplicateOrders: number;
  /** Buyers whose answers named two or more order ids. */
  buyersWithManyIds: number;
  /** Buyers who never got an order id (not even after the storm). */
  buyersWithoutOrder: number;
  /** Keys still held after the storm: a repeat is answered 409 IN_USE instead of a replay. */
  stuckClaims: number;
  /** The `order_key`s (the claim store's keys) of the stuck claims, to look up their life in a trace. */
  stuckKeys: string[];
  statuses: Record<string, number>;
  /** Requests that got no answer within `hangMs`. */
  hung: number;
}

interface Answer {
  status: number;
  hung?: boolean;
  apiCode?: string;
  idOrder?: number;
  retryAfterS: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(origin: string, key: string, body: unknown, hangMs = 60_000): Promise<Answer> {
  try {
    const response = await fetch(`${origin}/v1/checkout/links/${stormLink}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(hangMs),
    });
    const json = (await response.json().catch(() => ({}))) as { data?: { id_order?: number }; api_code?: string; description?: string };
    return {
      status: response.status,
      ...(json.api_code ? { apiCode: json.api_code + (json.description?.includes('store') ? ' (store)' : '') } : {}),
      ...(json.data?.id_order ? { idOrder: json.data.id_order } : {}),
      retryAfterS: Number(response.headers.get('retry-after') ?? '1') || 1,
    };
  } catch (error) {
    return { status: 0, retryAfterS: 1, ...(error instanceof Error && error.name === 'TimeoutError' ? { hung: true } : {}) };
  }
}

interface SandboxOrder {
  id_order: number;
  id_external: string | null;
  status: string;
}

async function sandboxOrders(sandboxOrigin: string): Promise<SandboxOrder[]> {
  const response = await fetch(`${sandboxOrigin}/sandbox/orders`);
  return ((await response.json()) as { data: SandboxOrder[] }).data;
}

export async function buyerStorm(options: StormOptions): Promise<StormResult> {
  const { origin, sandboxOrigin, buyers = 200, copies = 5, changedEvery = 4, deadlineMs = 40_000, retry = true } = options;
  const runId = options.runId ?? Date.now().toString(36);
  const orderKeySecret = (await serverSecrets(merchantKey)).orderKey;
  const keys = Array.from({ length: buyers }, (_, i) => `${runId}-buyer-${i}`);
  const orderKeys = new Map(await Promise.all(keys.map(async (k) => [await orderKeyFor(orderKeySecret, stormLink, k), k] as const)));
  const body = (i: number, changed = false) => ({
    payment_gateway: { id_payment_gateway: 1 },
    shopper: { id_number: changed ? `9${1_000_000 + i}` : `${1_000_000 + i}`, id_type: 1, phone_number: '3001234567' },
  });
  const idsSeen = new Map<string, Set<number>>(keys.map((k) => [k, new Set()]));
  const waiting = new Set(keys);
  const statuses: Record<string, number> = {};
  let requests = 0;
  let hung = 0;
  const started = Date.now();
  const deadline = started + deadlineMs;

  const attempt = async (key: string, payload: unknown): Promise<void> => {
    for (;;) {
      const answer = await post(origin, key, payload, options.hangMs);
      requests += 1;
      if (answer.hung) hung += 1;
      options.onAnswer?.(answer.status, Date.now());
      const label = answer.apiCode ? `${answer.status} ${answer.apiCode}` : String(answer.status);
      statuses[label] = (statuses[label] ?? 0) + 1;
      if (answer.idOrder) {
        idsSeen.get(key)?.add(answer.idOrder);
        return;
      }
      const again = answer.status === 0 || answer.status >= 500 || answer.apiCode === 'IDEMPOTENCY_KEY_IN_USE';
      if (!retry || !again || Date.now() > deadline) return;
      // Retry-After, scaled down: the storm would otherwise spend most of its time asleep.
      await sleep(Math.min(answer.retryAfterS * 1000, 200 + Math.random() * 200));
    }
  };

  // A buyer left in doubt approves the push on the phone; its order_payment settles the claim.
  let settling = true;
  const settler = (async () => {
    const approved = new Set<number>();
    while (settling) {
      await sleep(500);
      const open = [...waiting].filter((k) => (idsSeen.get(k)?.size ?? 0) === 0);
      if (open.length === 0) continue;
      for (const order of await sandboxOrders(sandboxOrigin).catch(() => [])) {
        const key = order.id_external ? orderKeys.get(order.id_external) : undefined;
        if (!key || !open.includes(key) || approved.has(order.id_order) || !['pending', 'processing'].includes(order.status)) continue;
        approved.add(order.id_order);
        await fetch(`${sandboxOrigin}/sandbox/orders/${order.id_order}/approve`, { method: 'POST' }).catch(() => {});
      }
    }
  })();

  const buyer = async (key: string, i: number) => {
    const sends = Array.from({ length: copies }, () => attempt(key, body(i)));
    if (changedEvery > 0 && i % changedEvery === 0) sends.push(attempt(key, body(i, true)));
    await Promise.all(sends);
    waiting.delete(key);
  };
  let nextBuyer = 0;
  const lane = async () => {
    for (let i = nextBuyer++; i < keys.length; i = nextBuyer++) await buyer(keys[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(options.waveSize ?? keys.length, keys.length) }, lane));
  settling = false;
  await settler;
  const elapsedMs = Date.now() - started;

  // A claim left held after the storm shows as a repeat that is not replayed.
  const stuck: string[] = [];
  for (let i = 0; i < keys.length; i += 25) {
    const batch = keys.slice(i, i + 25);
    const probes = await Promise.all(batch.map((key, j) => post(origin, key, body(i + j))));
    stuck.push(...batch.filter((_, j) => probes[j]?.apiCode === 'IDEMPOTENCY_KEY_IN_USE'));
  }
  const keyOrderKeys = new Map([...orderKeys].map(([orderKey, key]) => [key, orderKey]));

  const perKey = new Map<string, number>();
  for (const order of await sandboxOrders(sandboxOrigin)) {
    const key = order.id_external ? orderKeys.get(order.id_external) : undefined;
    if (key) perKey.set(key, (perKey.get(key) ?? 0) + 1);
  }
  const counts = [...perKey.values()];
  return {
    buyers,
    requests,
    elapsedMs,
    orders: counts.reduce((a, b) => a + b, 0),
    duplicateOrders: counts.reduce((a, n) => a + Math.max(0, n - 1), 0),
    buyersWithManyIds: keys.filter((k) => (idsSeen.get(k)?.size ?? 0) >= 2).length,
    buyersWithoutOrder: keys.filter((k) => (idsSeen.get(k)?.size ?? 0) === 0).length,
    stuckClaims: stuck.length,
    stuckKeys: stuck.map((key) => keyOrderKeys.get(key) ?? key),
    statuses,
    hung,
  };
}

// Test support for <pay-checkout>: mount against the real sandbox (proxied on this page's origin),
// find things the way a person would (by visible text and labels), and drive the sandbox's control API.
import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/define.js';
import { PayCheckout } from '../../../src/index.js';
import type { FlowStep } from '../../../src/flow/types.js';

export { pasteText, pressKey, typeKeys } from './input.js';

/** How long a wait on a state may take: generous, for a loaded 2-core machine running three engines in turn. */
export const settleMs = 15_000;

/** Fast status checks for tests; production keeps 2 s → 10 s. */
PayCheckout.statusTimings = { firstDelayMs: 40, growth: 1.2, maxDelayMs: 150, jitter: 0 };
/** Card hand-offs are recorded, not followed, so the test page stays. */
export const navigations: string[] = [];
PayCheckout.navigate = (url) => navigations.push(url);

export async function resetSandbox(): Promise<void> {
  const response = await fetch('/sandbox/reset', { method: 'POST' });
  if (!response.ok) throw new Error(`reset failed: ${response.status}`);
  sessionStorage.clear();
  // The saved order's copy for other tabs lives here too.
  localStorage.clear();
  navigations.length = 0;
}

/** POSTs to the control API and returns `data`. */
export async function control<T = unknown>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method: body === undefined && !path.startsWith('POST ') ? 'GET' : 'POST' };
  let url = path;
  if (path.startsWith('POST ')) url = path.slice(5);
  if (body !== undefined) {
    init.method = 'POST';
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`/sandbox${url}`, init);
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

export interface SandboxOrder {
  id_order: number;
  status: string;
  otp: string | null;
  otp_attempts_left: number | null;
  card_url: string | null;
  transfer_key: string | null;
  cancel_reason?: string | null;
}

export const sandboxOrders = () => control<SandboxOrder[]>('/orders');
export const sandboxOrder = (id: number) => control<SandboxOrder>(`/orders/${id}`);

export interface MountOptions {
  link?: string;
  locale?: string;
}

export async function mount(options: MountOptions = {}): Promise<PayCheckout> {
  const el = await fixture<PayCheckout>(
    html`<pay-checkout link=${options.link ?? 'demo-fixed'} api-base="/v1" locale=${options.locale ?? 'es'}></pay-checkout>`,
  );
  return el;
}

/**
 * Mounts `<pay-checkout>` as a merchant's page writes it: `attributes` besides `api-base="/v1"` and `locale="es"`
 * (`link` defaults to the fixed demo link), and `properties` set before it connects.
 */
export async function mountWith(attributes: Record<string, string>, properties: Partial<PayCheckout> = {}): Promise<PayCheckout> {
  const el = document.createElement('pay-checkout');
  for (const [name, value] of Object.entries({ link: 'demo-fixed', 'api-base': '/v1', locale: 'es', ...attributes })) el.setAttribute(name, value);
  Object.assign(el, properties);
  return fixture<PayCheckout>(html`${el}`);
}

/** Method screen → Bre-B → details → transfer, then the sandbox's bank pays it: up to the receipt. */
export async function payByTransfer(el: PayCheckout): Promise<void> {
  await click(el, 'Bre-B');
  await waitForStep(el, 'details');
  await fillDetails(el, {});
  await waitForStep(el, 'transfer');
  await control(`/orders/${await latestOrderId()}/pay`, {});
  await waitForStep(el, 'paid');
}

/** Waits until the checkout shows `step`, and its step element has rendered. */
export async function waitForStep(el: PayCheckout, step: FlowStep, timeout = settleMs): Promise<HTMLElement> {
  await waitUntil(() => el.step === step, `expected step "${step}", still "${el.step}"`, { timeout, interval: 10 });
  await el.updateComplete;
  const screen = currentScreen(el);
  // Steps after the first screen are a lazy chunk: wait for the definition, then the render.
  await customElements.whenDefined(screen.localName);
  await (screen as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete;
  return screen;
}

export function currentScreen(el: PayCheckout): HTMLElement {
  const screen = el.shadowRoot?.querySelector<HTMLElement>('[data-step]');
  if (!screen) throw new Error('no step element rendered');
  return screen;
}

/** Everything under the current screen's shadow root. */
export function screenRoot(el: PayCheckout): ShadowRoot {
  const root = currentScreen(el).shadowRoot;
  if (!root) throw new Error('step has no shadow root');
  return root;
}

export function heading(el: PayCheckout): string {
  return screenRoot(el).querySelector('h2')?.textContent?.trim() ?? '';
}

/** The button (or button-like link) whose visible text contains `text`. */
export function button(el: PayCheckout, text: string | RegExp): HTMLButtonElement | HTMLAnchorElement {
  const all = [...screenRoot(el).querySelectorAll<HTMLButtonElement | HTMLAnchorElement>('button, a.button')];
  const found = all.find((b) => (typeof text === 'string' ? b.textContent?.includes(text) : text.test(b.textContent ?? '')));
  if (!found) throw new Error(`no button "${String(text)}" among: ${all.map((b) => b.textContent?.trim()).join(' | ')}`);
  return found;
}

export async function click(el: PayCheckout, text: string | RegExp): Promise<void> {
  button(el, text).click();
  await el.updateComplete;
}

/** The input or select labelled `label`. */
export function field(el: PayCheckout, label: string | RegExp): HTMLInputElement | HTMLSelectElement {
  const root = screenRoot(el);
  const labels = [...root.querySelectorAll('label')];
  const found = labels.find((l) => (typeof label === 'string' ? l.textContent?.includes(label) : label.test(l.textContent ?? '')));
  const control = found?.htmlFor ? root.getElementById(found.htmlFor) : null;
  if (!control) throw new Error(`no field labelled "${String(label)}"`);
  return control as HTMLInputElement | HTMLSelectElement;
}

/** Types into a field as a person would: focus, value, input event. */
export async function type(el: PayCheckout, label: string | RegExp, value: string): Promise<void> {
  const control = field(el, label);
  control.focus();
  control.value = value;
  control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true, composed: true }));
  await el.updateComplete;
  await (currentScreen(el) as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
}

export async function choose(el: PayCheckout, label: string | RegExp, optionText: string): Promise<void> {
  const select = field(el, label) as HTMLSelectElement;
  const option = [...select.options].find((o) => o.textContent?.includes(optionText));
  if (!option) throw new Error(`no option "${optionText}"`);
  await type(el, label, option.value);
}

export async function submit(el: PayCheckout, text: string | RegExp): Promise<void> {
  button(el, text).click();
  await el.updateComplete;
}

/** Records every event of `names` fired by the element. */
export function recordEvents(el: EventTarget, names: readonly string[]): CustomEvent[] {
  const seen: CustomEvent[] = [];
  for (const name of names) el.addEventListener(name, (e) => seen.push(e as CustomEvent));
  return seen;
}

export const gatewayIds = { push: 1, otp: 2, card: 4, transfer: 9 } as const;

/** Method screen → details screen for a gateway, by its name on screen. */
export async function chooseMethod(el: PayCheckout, name: string): Promise<void> {
  await waitForStep(el, 'method');
  await click(el, name);
  await waitForStep(el, 'details');
}

/** Fills the details as a buyer would, then presses Pay. */
export async function fillDetails(el: PayCheckout, values: { idType?: string; idNumber?: string; phone?: string }): Promise<void> {
  await choose(el, 'Tipo de documento', values.idType ?? 'CC');
  await type(el, 'Número de documento', values.idNumber ?? '1020304050');
  if (values.phone !== undefined) await type(el, 'celular', values.phone);
  await submit(el, 'Pagar');
}

/** The receipt's facts: each term's text (spaces normalized) → its value's element. */
export function receiptFacts(el: PayCheckout): Map<string, HTMLElement> {
  const clean = (n: Element) => n.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  return new Map([...screenRoot(el).querySelectorAll<HTMLElement>('dt + dd')].map((dd) => [clean(dd.previousElementSibling as Element), dd]));
}

/** Fixed link, push (Nequi), phone given: up to the push screen; returns the new order's id. */
export async function toPush(el: PayCheckout, phone = '300 123 4567'): Promise<number> {
  await chooseMethod(el, 'Nequi');
  await fillDetails(el, { phone });
  await waitForStep(el, 'push');
  return latestOrderId();
}

export async function latestOrderId(): Promise<number> {
  const [order] = await sandboxOrders();
  if (!order) throw new Error('no order in the sandbox');
  return order.id_order;
}

/** What the screen shows of a node: its text without the words only screen readers get (`.sr-only`), spaces normalized. */
export function shownText(node: Node | null | undefined): string {
  const walk = (n: Node): string =>
    n.nodeType === Node.TEXT_NODE ? (n.textContent ?? '') : n instanceof Element && n.classList.contains('sr-only') ? '' : [...n.childNodes].map(walk).join('');
  return node ? walk(node).replace(/\s+/g, ' ').trim() : '';
}

/** Shared by the demo tests: the sandbox behind the test server, driven the way a buyer's page would. */
import { CheckoutOrderCreatedSchema, dataOf, SandboxOrderSchema, type CheckoutOrderCreated, type SandboxOrder } from '../../src/contract/index.js';

export async function resetSandbox(): Promise<void> {
  const response = await fetch('/sandbox/reset', { method: 'POST' });
  if (!response.ok) throw new Error(`reset failed: ${response.status}`);
}

const gateways = { push: 1, otp: 2, transfer: 9 } as const;

/** Creates an order through the buyer API on the dynamic link, as the element would. */
export async function buyerOrder(kind: keyof typeof gateways, amount = 25_000, phone = '3001234567'): Promise<CheckoutOrderCreated> {
  const response = await fetch('/v1/checkout/links/demo-dynamic/orders', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({
      amount,
      payment_gateway: { id_payment_gateway: gateways[kind] },
      shopper: { id_number: '1020304050', id_type: 1, ...(kind === 'push' ? { phone_number: phone } : {}) },
    }),
  });
  const json: unknown = await response.json();
  if (!response.ok) throw new Error(`order failed: ${JSON.stringify(json)}`);
  return CheckoutOrderCreatedSchema.parse((json as { data: unknown }).data);
}

/** The control API's view of an order: the truth the demo's buttons must change. */
export async function controlOrder(id: number): Promise<SandboxOrder> {
  const response = await fetch(`/sandbox/orders/${id}`);
  return dataOf(SandboxOrderSchema).parse(await response.json()).data;
}

export async function control(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`/sandbox${path}`, {
    method: 'POST',
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const json: unknown = await response.json();
  if (!response.ok) throw new Error(`${path} failed: ${JSON.stringify(json)}`);
  return json;
}

/** Types into a field the way a person does: the value, then the input event the page listens to. */
export function typeInto(field: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  field.focus();
  field.value = text;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, data: text, inputType: 'insertText' }));
}

/** The button whose visible text (or accessible label) is `name`, inside `root`. */
export function button(root: ParentNode, name: string | RegExp): HTMLButtonElement {
  const buttons = [...root.querySelectorAll('button')];
  const found = buttons.find((b) => {
    const label = `${b.getAttribute('aria-label') ?? ''} ${b.textContent ?? ''}`.replace(/\s+/g, ' ').trim();
    return typeof name === 'string' ? label.includes(name) : name.test(label);
  });
  if (!found) throw new Error(`no button "${String(name)}" among: ${buttons.map((b) => b.textContent?.trim()).join(', ')}`);
  return found;
}

export const text = (node: Element | null | undefined) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The merchant page: wires the link, theme and locale switches to `<pay-checkout>` and logs its events. */
import '../../src/define.js';
import type { PayCheckout } from '../../src/define.js';
import { clearSavedOrder } from '../../src/element/order/keep-order.js';
import { describeError, sandbox } from '../shared/api.js';
import './event-log.js';
import type { DemoEventLog } from './event-log.js';

/** Every public event of the element (docs/site/plugin-authors/events.md). */
export const payEventNames = ['pay-ready', 'pay-order-created', 'pay-status-change', 'pay-paid', 'pay-failed', 'pay-cancelled', 'pay-error'] as const;

const choices = {
  link: ['demo-fixed', 'demo-dynamic'],
  theme: ['auto', 'light', 'dark'],
  locale: ['es', 'en'],
} as const;
type Setting = keyof typeof choices;
type Settings = { [K in Setting]: (typeof choices)[K][number] };

/** Settings come from the address (`?link=demo-dynamic&theme=dark&locale=en`), so a view can be shared or screenshot. */
export function readSettings(search: string): Settings {
  const query = new URLSearchParams(search);
  const pick = <K extends Setting>(name: K): Settings[K] => {
    const value = query.get(name);
    return ((choices[name] as readonly string[]).includes(value ?? '') ? value : choices[name][0]) as Settings[K];
  };
  return { link: pick('link'), theme: pick('theme'), locale: pick('locale') };
}

/** Applies the settings: the element's attributes, the page's colour scheme, the hosted-page link. */
export function applySettings(checkout: PayCheckout, settings: Settings, root = document.documentElement): void {
  checkout.setAttribute('link', settings.link);
  checkout.setAttribute('theme', settings.theme);
  checkout.setAttribute('locale', settings.locale);
  if (settings.theme === 'auto') delete root.dataset.theme;
  else root.dataset.theme = settings.theme;
}

/** Logs every `pay-*` event that reaches `target` (they bubble and are composed). */
export function logEvents(target: EventTarget, log: DemoEventLog): void {
  for (const name of payEventNames) target.addEventListener(name, (event) => log.add(name, (event as CustomEvent).detail));
}

/**
 * "Start over": resets the sandbox, forgets the orders the element saved for the demo links (their ids are reused
 * after a reset) and puts a fresh element in place of the old one.
 */
export async function startOver(checkout: PayCheckout): Promise<PayCheckout> {
  await sandbox.reset();
  for (const hash of choices.link) clearSavedOrder(hash);
  const fresh = document.createElement('pay-checkout');
  for (const { name, value } of [...checkout.attributes]) fresh.setAttribute(name, value);
  checkout.replaceWith(fresh);
  return fresh;
}

function start() {
  const first = document.querySelector('pay-checkout');
  const log = document.querySelector('demo-event-log');
  const form = document.querySelector<HTMLFormElement>('#settings');
  const hosted = document.querySelector<HTMLAnchorElement>('#hosted-link');
  if (!first || !log || !form) return;
  let checkout = first;
  logEvents(document, log);
  const settings = readSettings(location.search);
  for (const [name, value] of Object.entries(settings)) {
    const radio = form.querySelector<HTMLInputElement>(`input[name="${name}"][value="${value}"]`);
    if (radio) radio.checked = true;
  }
  const apply = (s: Settings) => {
    applySettings(checkout, s);
    if (hosted) {
      hosted.href = `/checkout/${s.link}`;
      hosted.textContent = `/checkout/${s.link}`;
    }
  };
  apply(settings);
  const status = document.querySelector('#start-over-status');
  document.querySelector('#start-over')?.addEventListener('click', async () => {
    try {
      checkout = await startOver(checkout);
      if (status) status.textContent = 'Sandbox reiniciado: el checkout empieza de nuevo.';
    } catch (error) {
      if (status) status.textContent = `No se pudo reiniciar: ${describeError(error)}`;
    }
  });
  form.addEventListener('change', () => {
    const data = new FormData(form);
    const next = readSettings(new URLSearchParams([...data.entries()].map(([k, v]) => [k, String(v)])).toString());
    history.replaceState(null, '', `?${new URLSearchParams(next).toString()}`);
    apply(next);
  });
}

start();

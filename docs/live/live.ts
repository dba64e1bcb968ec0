/**
 * The live checkouts and the theming playground: registers the Service Worker sandbox (sw.js at the site's root),
 * then puts a `<pay-checkout>` into each `.live-example[data-link]`, the phone simulator beside them, and wires the
 * playground's controls to its preview.
 */
import demoCss from '../../demo/shared/demo.css?inline';
import phoneCss from '../../demo/phone/phone.css?inline';
import { wirePlayground } from './playground.js';

const siteRoot = new URL(/* @vite-ignore */ '../../', import.meta.url);

/**
 * The demo's phone styles, scoped to the phone so the site's own styles stay as they are. Every `:root` becomes
 * the phone: the built CSS is minified (`:root{`) and its light-dark() lowered into `:root` rules per colour scheme.
 */
function adoptPhoneStyles() {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`.live-phone { ${demoCss.replaceAll(':root', '&')}\n${phoneCss} }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** Resolves once a worker answers this page's requests (the first visit, or after the worker was replaced). */
async function sandboxInBrowser(): Promise<void> {
  await navigator.serviceWorker.register(new URL('sw.js', siteRoot), { scope: siteRoot.pathname });
  if (navigator.serviceWorker.controller) return;
  await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
}

/** A checkout of `hash` talking to the sandbox in this browser. */
export function checkoutOf(hash: string): HTMLElement {
  const checkout = document.createElement('pay-checkout');
  checkout.setAttribute('link', hash);
  checkout.setAttribute('api-base', new URL('v1', siteRoot).href);
  return checkout;
}

/** Back to the fixtures: the sandbox's reset, and the element's saved orders and receipts for the live links. */
async function resetSandbox() {
  await fetch(new URL('sandbox/reset', siteRoot), { method: 'POST' });
  for (const storage of [sessionStorage, localStorage]) {
    for (const key of Object.keys(storage)) if (key.includes('live-') || key.includes('demo-')) storage.removeItem(key);
  }
  location.reload();
}

async function start() {
  const status = document.getElementById('live-status');
  if (!('serviceWorker' in navigator)) {
    if (status) status.textContent = 'This browser has no Service Workers, so the sandbox cannot run in it.';
    return;
  }
  await sandboxInBrowser();
  const phoneSlot = document.querySelector('.live-phone-slot');
  const [, phone] = await Promise.all([import('../../src/define.js'), phoneSlot ? import('./phone.js') : null]);
  phone?.definePhone();
  for (const example of document.querySelectorAll<HTMLElement>('.live-example[data-link]')) example.replaceChildren(checkoutOf(example.dataset.link ?? ''));
  if (phoneSlot) {
    adoptPhoneStyles();
    const phone = document.createElement('demo-phone');
    phone.classList.add('live-phone');
    phoneSlot.replaceChildren(phone);
  }
  const playground = document.querySelector<HTMLElement>('.playground');
  if (playground) wirePlayground(playground, checkoutOf('demo-dynamic'));
  document.getElementById('live-reset')?.addEventListener('click', () => void resetSandbox());
  if (status) status.textContent = 'The sandbox is running in this browser.';
}

void start();

/** The hosted checkout page: `{checkout_url}/HASH` → `<pay-checkout link="HASH">` on a page of its own. */
import '../src/define.js';
import { apiBaseFrom, linkFromPath, localeFrom } from './link-from-path.js';

const main = document.getElementById('checkout') ?? document.body;
const hash = linkFromPath(location.pathname);
const locale = localeFrom(location.search);
document.documentElement.lang = locale;
const title = document.getElementById('page-title');
// A server-rendered page already names the store in its heading.
const rendered = main.querySelector('pay-checkout');
if (title && !rendered) title.textContent = locale === 'en' ? 'Payment' : 'Pago';

if (!hash) {
  void import('./no-link.js').then(({ noLinkMessage }) => main.replaceChildren(noLinkMessage(locale)));
} else {
  // A server-rendered page already holds the element, its first screen and the link answer: it takes over in place.
  const checkout = rendered ?? document.createElement('pay-checkout');
  checkout.link = hash;
  checkout.apiBase = apiBaseFrom(document.querySelector<HTMLMetaElement>('meta[name="pay-api-base"]')?.content, location.origin);
  checkout.locale = locale;
  // The store's name in the tab, so a buyer switching apps (to approve a push) finds the page again.
  checkout.addEventListener('pay-ready', (event) => {
    document.title = `${event.detail.link.store_name} · ${locale === 'en' ? 'Payment' : 'Pago'}`;
    if (title) title.textContent = `${locale === 'en' ? 'Payment to' : 'Pago a'} ${event.detail.link.store_name}`;
  });
  // A return from the card page lands here again: the element resumes the order it kept in sessionStorage.
  if (!rendered) main.replaceChildren(checkout);
}

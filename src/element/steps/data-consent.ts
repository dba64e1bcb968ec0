import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { isSafeRedirectUrl } from '../../contract/redirect-url.js';
import type { Messages } from '../../i18n/messages.js';

/** What `<pay-checkout>` tells the details screen about personal data (Ley 1581): `privacy-url`, `consent`. */
export interface DataConsent {
  privacyUrl?: string | undefined;
  consent?: string | undefined;
}

const refused = new Set<string>();

/** The store's policy, when `privacy-url` is one the element links to (`https:`, `http:` only on loopback); warns once otherwise. */
export function policyHref(url: string | undefined): string | null {
  if (!url) return null;
  if (isSafeRedirectUrl(url)) return url;
  if (!refused.has(url)) {
    refused.add(url);
    console.warn(`<pay-checkout>: privacy-url "${url}" ignored: it must be an https: URL (http: only on this machine).`);
  }
  return null;
}

/** Whether the page asks the buyer's express consent before paying. */
export const consentRequired = (page: DataConsent) => page.consent === 'required';

/** The sentence, its middle words a link to the policy (a new tab, so the checkout stays) when there is one. */
export function consentSentence([before, linkText, after]: readonly [string, string, string], href: string | null, m: Messages): TemplateResult {
  const link = href
    ? html`<a href=${href} target="_blank" rel="noopener noreferrer" part="privacy-link">${linkText}<span class="sr-only">, ${m.details.newTab}</span></a>`
    : linkText;
  return html`${before}${link}${after}`;
}

/** Above the pay button: the notice (`privacy-url`), or the consent checkbox (`consent="required"`); nothing without either. */
export function dataConsentTemplate(
  page: DataConsent,
  store: string,
  checked: boolean,
  error: TemplateResult | typeof nothing,
  onChange: (checked: boolean) => void,
  m: Messages,
): TemplateResult | typeof nothing {
  const href = policyHref(page.privacyUrl);
  if (consentRequired(page)) {
    return html`<div class="field consent" part="consent">
      <input
        id="consent"
        type="checkbox"
        part="consent-checkbox"
        .checked=${checked}
        aria-invalid=${error === nothing ? 'false' : 'true'}
        aria-describedby=${error === nothing ? nothing : 'consent-error'}
        @change=${(e: Event) => onChange((e.target as HTMLInputElement).checked)}
      />
      <label for="consent">${consentSentence(m.details.consentLabel(store), href, m)}</label>
      ${error}
    </div>`;
  }
  return href ? html`<p class="data-notice" part="data-notice">${consentSentence(m.details.dataNotice(store), href, m)}</p>` : nothing;
}

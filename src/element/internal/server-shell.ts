import { isServer } from 'lit';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { firstScreen, initialState } from '../../flow/first-screen.js';
import { onlyMethod } from '../../flow/screens.js';
import type { FlowState } from '../../flow/types.js';
import { shownLink } from './page-choices.js';

/**
 * A shadow root the server rendered (declarative shadow DOM) is adopted by Lit's hydrate support
 * (`@lit-labs/ssr-client`); without it Lit would render a second copy beside the server's. So then it starts empty.
 */
export function dropServerShell(host: HTMLElement): void {
  if (!isServer && host.shadowRoot && !('litElementHydrateSupport' in globalThis)) host.shadowRoot.replaceChildren();
}

/**
 * What a server (Lit SSR) draws from the link answer it hands over (renderHostedPage checks it first): the first
 * screen, or undefined for the loading shell (a link with one method opens on its details, a later step).
 */
export function serverFirstScreen(linkData: unknown, hash: string, methods: string | undefined): FlowState | undefined {
  const link = linkData as CheckoutLink | undefined;
  const first = link?.hash === hash && Array.isArray(link.gateways) ? firstScreen(initialState(), { type: 'link_loaded', link: shownLink(link, methods) }) : undefined;
  return first && !onlyMethod(first) ? first : undefined;
}

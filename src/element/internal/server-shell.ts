import { isServer } from 'lit';

/**
 * A shadow root the server rendered (declarative shadow DOM) is adopted by Lit's hydrate support
 * (`@lit-labs/ssr-client`); without it Lit would render a second copy beside the server's. So then it starts empty.
 */
export function dropServerShell(host: HTMLElement): void {
  if (!isServer && host.shadowRoot && !('litElementHydrateSupport' in globalThis)) host.shadowRoot.replaceChildren();
}

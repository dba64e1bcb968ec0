import { LitElement } from 'lit';

/**
 * The demo's elements render into the light DOM, so the page's own `.css` files style them (no inline styles
 * under a strict CSP) and tests query them directly.
 */
export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}

/** Registers a tag once, so a module loaded twice (dev server, tests) does not throw. */
export function defineOnce(tag: string, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}

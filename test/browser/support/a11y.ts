// axe in both themes: every screen is checked in light and dark.
import { expect } from '@open-wc/testing';
import type { PayCheckout } from '../../../src/index.js';

export async function expectAccessibleInBothThemes(el: PayCheckout): Promise<void> {
  const before = el.theme;
  try {
    for (const theme of ['light', 'dark'] as const) {
      el.theme = theme;
      await el.updateComplete;
      await expect(el).to.be.accessible();
    }
  } finally {
    el.theme = before;
    await el.updateComplete;
  }
}

/** What the one polite live region says now, spaces normalized. */
export const liveRegionText = (el: PayCheckout) =>
  el.shadowRoot?.querySelector('[part="live-region"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** Where focus is, named: `input#code`, `h2#`, `body` (comparing elements with chai's equal hangs on a failure). */
export function focusName(el: PayCheckout): string {
  if (document.activeElement !== el) return document.activeElement?.localName ?? 'nothing';
  const step = el.shadowRoot?.querySelector('[data-step]');
  const inner = step?.shadowRoot?.activeElement;
  return inner ? `${inner.localName}#${inner.id}` : 'the checkout, nothing inside the step';
}

// pay-checkout/svelte types <pay-checkout> in templates: attributes and both event syntaxes (svelte-check).
import type { CustomElements } from 'pay-checkout/svelte';

declare global {
  namespace svelteHTML {
    interface IntrinsicElements extends CustomElements {}
  }
}

export {};

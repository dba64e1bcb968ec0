/// <reference types="svelte" />
/// <reference types="vite/client" />
// docs/site/frameworks/svelte.md: pay-checkout/svelte types <pay-checkout> in templates (svelte-check).
import type { CustomElements } from 'pay-checkout/svelte';

declare global {
  namespace svelteHTML {
    interface IntrinsicElements extends CustomElements {}
  }
}

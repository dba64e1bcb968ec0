import { css, unsafeCSS } from 'lit';

/**
 * The dark theme, its tokens written once for its two places: `theme="dark"`, and a dark system's setting where the page
 * did not ask for `theme="light"`. A string, not a `css` template: one list placed in two rules is no CSS of its own.
 */
const dark = [
  '--pay-color-primary:#93c5fd',
  '--pay-color-on-primary:#0b1220',
  '--pay-color-text:#f3f4f6',
  '--pay-color-muted:#c4c9d2',
  '--pay-color-background:#111827',
  '--pay-color-surface:#1f2937',
  '--pay-color-border:#374151',
  '--pay-color-border-strong:#9ca3af',
  '--pay-color-danger:#fca5a5',
  '--pay-color-success:#86efac',
  '--pay-color-notice-bg:#1f2937',
  '--pay-color-icon-backdrop:#f9fafb',
  '--pay-focus-ring:3px solid #93c5fd',
].join(';');
const darkTheme = unsafeCSS(`:host([theme='dark']){${dark}}@media (prefers-color-scheme:dark){:host(:not([theme='light'])){${dark}}}`);

/** The host: theme tokens (light, dark, auto), the frame, the header and the live region. */
export const payCheckoutStyles = css`
  :host {
    --pay-color-primary: #1d4ed8;
    --pay-color-on-primary: #ffffff;
    --pay-color-text: #111827;
    --pay-color-muted: #4b5563;
    --pay-color-background: #ffffff;
    --pay-color-surface: #ffffff;
    --pay-color-border: #e5e7eb;
    --pay-color-border-strong: #6b7280;
    --pay-color-danger: #b91c1c;
    --pay-color-success: #15803d;
    --pay-color-notice-bg: #f3f4f6;
    --pay-color-icon-backdrop: transparent;
    --pay-radius: 10px;
    --pay-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --pay-space: 1rem;
    --pay-max-width: 32rem;
    --pay-focus-ring: 3px solid #2563eb;
    display: block;
    /* The room the first screen takes (a link with a description and four methods, 320 px wide and up), held from the
       loading screen on, so the page below does not move as screens come; a page's own min-block-size overrides it. */
    min-block-size: 38rem;
    max-width: var(--pay-max-width);
    color: var(--pay-color-text);
    font-family: var(--pay-font);
    font-size: 1rem;
    line-height: 1.5;
  }
  :host([hidden]) {
    display: none;
  }
  ${darkTheme}
  .base {
    background: var(--pay-color-background);
    border: 1px solid var(--pay-color-border);
    border-radius: var(--pay-radius);
    padding: var(--pay-space);
  }
  header {
    display: grid;
    gap: 0.125rem;
    padding-bottom: var(--pay-space);
    margin-bottom: var(--pay-space);
    border-bottom: 1px solid var(--pay-color-border);
  }
  header p {
    margin: 0;
  }
  .store {
    font-weight: 700;
  }
  .description {
    color: var(--pay-color-muted);
  }
  .amount {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    /* Centred in the big amount's line box, not on its baseline: a server-drawn screen may paint half-parsed, and the
       label then moved down when the amount arrived (a layout shift). */
    align-items: center;
    min-block-size: 2.25rem;
    gap: 1rem;
    margin-top: 0.5rem;
  }
  .amount strong {
    font-size: 1.5rem;
    font-variant-numeric: tabular-nums;
  }
  .config-error {
    margin: 0 0 var(--pay-space);
    padding: 0.75rem;
    border: 2px solid var(--pay-color-danger);
    border-radius: var(--pay-radius);
    color: var(--pay-color-danger);
    font-weight: 600;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;

import { css } from 'lit';

/**
 * What every step shares: type scale, buttons, fields, messages. Colors and sizes
 * come from the host's `--pay-*` custom properties, which cross shadow roots.
 */
export const sharedStyles = css`
  :host {
    display: block;
  }
  * {
    box-sizing: border-box;
  }
  [hidden] {
    display: none !important;
  }
  h2 {
    margin: 0 0 var(--pay-space, 1rem);
    font-size: 1.25rem;
    line-height: 1.3;
  }
  h2:focus {
    outline: none;
  }
  h2:focus-visible {
    outline: var(--pay-focus-ring);
    outline-offset: 2px;
  }
  p {
    margin: 0 0 var(--pay-space, 1rem);
  }
  .muted {
    color: var(--pay-color-muted);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--pay-space, 1rem) / 2);
    margin-top: var(--pay-space, 1rem);
  }
  .actions > * {
    flex: 1 1 12rem;
  }
  button,
  .button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    min-height: 44px;
    min-width: 44px;
    padding: 0.625rem 1rem;
    border: 1px solid transparent;
    border-radius: var(--pay-radius);
    font: inherit;
    font-weight: 600;
    text-align: center;
    text-decoration: none;
    cursor: pointer;
    background: var(--pay-color-primary);
    color: var(--pay-color-on-primary);
  }
  button.secondary,
  .button.secondary {
    background: transparent;
    color: var(--pay-color-primary);
    /* At least 3:1 against the background (WCAG 1.4.11), light and dark. */
    border-color: var(--pay-color-border-strong);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button:focus-visible,
  .button:focus-visible,
  a:focus-visible,
  input:focus-visible,
  select:focus-visible {
    outline: var(--pay-focus-ring);
    outline-offset: 2px;
  }
  a {
    color: var(--pay-color-primary);
  }
  label {
    display: block;
    font-weight: 600;
    margin-bottom: 0.25rem;
  }
  .field {
    display: grid;
    gap: 0.25rem;
  }
  .hint {
    color: var(--pay-color-muted);
    font-size: 0.875rem;
  }
  input,
  select {
    width: 100%;
    min-height: 44px;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--pay-color-border-strong);
    border-radius: var(--pay-radius);
    background: var(--pay-color-surface);
    color: var(--pay-color-text);
    font: inherit;
    font-size: max(1rem, 16px);
  }
  [aria-invalid='true'] {
    border-color: var(--pay-color-danger);
    border-width: 2px;
  }
  .error {
    color: var(--pay-color-danger);
    font-weight: 600;
    font-size: 0.9375rem;
    margin: 0;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @media (forced-colors: active) {
    /* System colours flatten the theme: the primary button stays filled, an error keeps a mark a label lacks. */
    button:not(.secondary, .method),
    .button:not(.secondary) {
      background: ButtonText;
      color: ButtonFace;
    }
    .error {
      border-inline-start: 4px solid CanvasText;
      padding-inline-start: 0.5rem;
    }
  }
  .spinner {
    width: 2rem;
    height: 2rem;
    border-radius: 50%;
    border: 3px solid var(--pay-color-border);
    border-top-color: var(--pay-color-primary);
    animation: pay-spin 0.9s linear infinite;
  }
  @keyframes pay-spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    .spinner {
      animation: none !important;
      transition: none !important;
    }
  }
`;

/** A gateway icon that fails to load (offline, a strict img-src) is hidden; the name beside it says it all. */
export function hideBrokenImage(e: Event): void {
  (e.target as HTMLImageElement).hidden = true;
}

import { css } from 'lit';

/**
 * What the steps after the first screens share on top of `sharedStyles`: link buttons, notices, the waiting
 * line, the countdown and the numbered instructions. Apart, so the first screens' script does not carry them.
 */
export const laterStyles = css`
  .stack {
    display: grid;
    gap: var(--pay-space, 1rem);
  }
  button.link {
    background: transparent;
    color: var(--pay-color-primary);
    text-decoration: underline;
    padding-inline: 0.25rem;
    font-weight: 500;
  }
  button[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.6;
  }
  @media (forced-colors: active) {
    button[aria-disabled='true']:not(.secondary) {
      background: GrayText;
    }
  }
  .notice {
    padding: 0.75rem;
    border-radius: var(--pay-radius);
    background: var(--pay-color-notice-bg);
    color: var(--pay-color-text);
  }
  .waiting {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    margin-bottom: var(--pay-space, 1rem);
  }
  .waiting p {
    margin: 0;
  }
  .waiting > :not(.spinner) {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .countdown {
    font-variant-numeric: tabular-nums;
    color: var(--pay-color-muted);
  }
  .countdown strong {
    color: var(--pay-color-text);
  }
  ol.steps {
    margin: 0 0 var(--pay-space, 1rem);
    padding-inline-start: 1.25rem;
    display: grid;
    gap: 0.375rem;
  }
`;

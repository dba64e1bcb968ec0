import { css } from 'lit';

export const stepDetailsStyles = css`
  .summary {
    border: 2px solid var(--pay-color-danger);
    border-radius: var(--pay-radius);
    padding: 0.75rem 1rem;
    margin-bottom: var(--pay-space, 1rem);
  }
  .summary h3 {
    margin: 0 0 0.5rem;
    font-size: 1rem;
  }
  .summary ul {
    margin: 0;
    padding-inline-start: 1.25rem;
  }
  .summary a {
    /* A target at least 24 px tall (WCAG 2.5.8). */
    display: inline-flex;
    align-items: center;
    min-height: 24px;
    color: var(--pay-color-danger);
    font-weight: 600;
  }
  .chosen {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    font-weight: 600;
  }
  .consent {
    grid-template-columns: auto 1fr;
    align-items: start;
    gap: 0.25rem 0.75rem;
  }
  .consent input {
    width: 1.5rem;
    height: 1.5rem;
    min-height: 0;
    margin: 0;
    accent-color: var(--pay-color-primary);
  }
  .consent label {
    font-weight: 400;
    margin: 0;
  }
  .consent .error {
    grid-column: 1 / -1;
  }
  .data-notice {
    color: var(--pay-color-muted);
    font-size: 0.875rem;
    margin: 0;
  }
  .chosen img {
    width: 24px;
    height: 24px;
    padding: 1px;
    border-radius: 6px;
    background: var(--pay-color-icon-backdrop);
  }
`;

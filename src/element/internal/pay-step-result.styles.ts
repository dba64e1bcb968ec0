import { css } from 'lit';

export const stepResultStyles = css`
  .badge {
    width: 3rem;
    height: 3rem;
    border-radius: 50%;
    display: grid;
    place-items: center;
    font-size: 1.5rem;
    font-weight: 700;
    margin-bottom: var(--pay-space, 1rem);
    background: var(--pay-color-notice-bg);
    color: var(--pay-color-text);
  }
  .paid .badge {
    background: var(--pay-color-success);
    color: var(--pay-color-on-primary);
  }
  dl {
    display: grid;
    /* Both columns may shrink: at 200% text on a phone a long value wraps instead of pushing the page sideways. */
    grid-template-columns: minmax(0, max-content) minmax(0, 1fr);
    gap: 0.5rem 1rem;
    margin: 0 0 var(--pay-space, 1rem);
    padding: var(--pay-space, 1rem);
    border: 1px solid var(--pay-color-border);
    border-radius: var(--pay-radius);
  }
  dt,
  dd {
    overflow-wrap: anywhere;
  }
  dt {
    color: var(--pay-color-muted);
  }
  dd {
    margin: 0;
    font-weight: 600;
    text-align: end;
    font-variant-numeric: tabular-nums;
  }
`;

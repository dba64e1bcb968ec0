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
    gap: 0.5rem;
    margin: 0 0 var(--pay-space, 1rem);
    padding: var(--pay-space, 1rem);
    border: 1px solid var(--pay-color-border);
    border-radius: var(--pay-radius);
  }
  /* One row per fact: label and value side by side; when they do not fit (a phone, 200% text) the value moves whole
     to its own line, so an amount or a date never breaks inside itself ("$ 50.0 / 00"). */
  dl > div {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0 1rem;
  }
  /* A single word longer than the line (a long method name) still breaks rather than push the page sideways. */
  dt,
  dd {
    overflow-wrap: break-word;
  }
  dt {
    color: var(--pay-color-muted);
  }
  dd {
    min-width: 0;
    margin: 0 0 0 auto;
    font-weight: 600;
    text-align: end;
    font-variant-numeric: tabular-nums;
  }
`;

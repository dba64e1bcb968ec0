import { css } from 'lit';

export const stepAmountStyles = css`
  .money {
    position: relative;
  }
  .money span {
    position: absolute;
    inset-inline-start: 0.75rem;
    top: 50%;
    transform: translateY(-50%);
    color: var(--pay-color-muted);
    font-size: 1.25rem;
  }
  .money input {
    padding-inline-start: 2rem;
    font-size: 1.5rem;
    font-variant-numeric: tabular-nums;
  }
`;

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
  .presets {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    border: 0;
    padding: 0;
    margin: var(--pay-space, 1rem) 0 0;
  }
  /* Each preset is a radio drawn as a button: its label is the button, the circle visually hidden. */
  .presets label {
    position: relative;
    padding: 0.5rem 1rem;
    border: 1px solid var(--pay-color-border-strong);
    border-radius: var(--pay-radius);
    cursor: pointer;
  }
  .presets label:has(:checked) {
    border: 2px solid var(--pay-color-primary);
  }
  .presets label:has(:focus-visible) {
    outline: var(--pay-focus-ring);
  }
  .money input {
    padding-inline-start: 2rem;
    font-size: 1.5rem;
    font-variant-numeric: tabular-nums;
  }
`;

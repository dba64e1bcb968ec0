import { css } from 'lit';

export const stepStatusStyles = css`
  .center {
    display: grid;
    justify-items: center;
    text-align: center;
    gap: var(--pay-space, 1rem);
    padding-block: calc(var(--pay-space, 1rem) * 2);
  }
  .icon {
    font-size: 2rem;
    line-height: 1;
  }
`;

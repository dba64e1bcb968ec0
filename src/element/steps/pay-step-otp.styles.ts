import { css } from 'lit';

export const stepOtpStyles = css`
  #code {
    font-size: 1.75rem;
    letter-spacing: 0.5em;
    font-variant-numeric: tabular-nums;
    text-align: center;
  }
`;

import { css } from 'lit';

export const stepPushStyles = css`
  .phone {
    font-weight: 600;
  }
`;

import { css } from 'lit';

export const stepPushStyles = css`
  .phone {
    font-weight: 600;
  }
  .waiting {
    display: flex;
    align-items: center;
    gap: 0.75rem;
  }
`;

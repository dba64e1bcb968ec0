import { css } from 'lit';

export const stepCardStyles = css`
  .go {
    width: 100%;
  }
`;

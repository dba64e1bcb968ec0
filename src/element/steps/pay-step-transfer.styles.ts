import { css } from 'lit';

export const stepTransferStyles = css`
  /* Mobile first: the key before the QR, since a buyer cannot scan their own screen. */
  .layout {
    display: grid;
    gap: var(--pay-space, 1rem);
  }
  .key {
    display: grid;
    gap: 0.5rem;
  }
  .key .value {
    display: block;
    padding: 0.75rem;
    border: 1px dashed var(--pay-color-border-strong);
    border-radius: var(--pay-radius);
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 1.0625rem;
    word-break: break-all;
    user-select: all;
    -webkit-user-select: all;
  }
  .qr {
    justify-self: center;
    display: grid;
    justify-items: center;
    gap: 0.5rem;
  }
  .qr img {
    width: 208px;
    height: 208px;
    image-rendering: pixelated;
    background: #fff;
    padding: 8px;
    border-radius: var(--pay-radius);
  }
  /* Wider screens (the buyer may scan with their phone): the QR first, still one column, since the element
     itself is at most --pay-max-width wide and two columns would break the key mid-way. */
  @media (min-width: 480px) {
    .qr {
      order: -1;
    }
  }
`;

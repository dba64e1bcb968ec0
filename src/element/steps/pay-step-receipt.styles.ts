import { css } from 'lit';

/** The receipt on paper (or a PDF): the facts in black on white, without the buttons. Constructed styles: CSP-safe. */
export const stepReceiptStyles = css`
  .reference {
    overflow-wrap: anywhere;
  }
  @media print {
    .actions {
      display: none;
    }
    .paid,
    dl,
    dt,
    dd {
      color: #000;
      background: #fff;
    }
    dl {
      border-color: #000;
    }
  }
`;

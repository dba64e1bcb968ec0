import { css } from 'lit';

// The list's column may be narrower than a method's longest word ("Transferencia" at 200% text on a 320 px phone).
export const stepMethodStyles = css`
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: calc(var(--pay-space, 1rem) / 2);
  }
  .method {
    width: 100%;
    justify-content: flex-start;
    min-height: 56px;
    background: var(--pay-color-surface);
    color: var(--pay-color-text);
    border-color: var(--pay-color-border-strong);
    text-align: start;
  }
  .method:hover:not(:disabled),
  .method[aria-busy='true'] {
    border-color: var(--pay-color-primary);
  }
  .method[aria-busy='true'] {
    box-shadow: inset 0 0 0 1px var(--pay-color-primary);
    cursor: progress;
  }
  .method img {
    width: 32px;
    height: 32px;
    object-fit: contain;
    flex: none;
    /* A light frame in dark mode: a dark brand tile (Nequi's) stays visible. */
    padding: 1px;
    border-radius: 8px;
    background: var(--pay-color-icon-backdrop);
  }
  .method .name {
    display: grid;
    min-width: 0;
    overflow-wrap: anywhere;
    hyphens: auto;
  }
  .method .why {
    font-weight: 400;
    font-size: 0.875rem;
    color: var(--pay-color-muted);
  }
`;

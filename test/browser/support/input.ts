// Real keyboard and clipboard input that behaves the same in Chromium, Firefox and WebKit. Use these rather than
// `sendKeys({ type })` or `new ClipboardEvent(...)` directly: each works around one engine's test-driver gap.
import { sendKeys } from '@web/test-runner-commands';

/**
 * Types `text` with the browser's real keyboard, one key at a time. WebKit's WebDriver sends all of a string's keys
 * down and then all up, so repeated characters collapse ("25000" arrives as "250"); one key per action does not.
 */
export async function typeKeys(text: string): Promise<void> {
  for (const key of text) await sendKeys({ type: key });
}

/** Presses one named key (`Tab`, `Enter`, `ArrowDown`) with the browser's real keyboard. */
export async function pressKey(key: string): Promise<void> {
  await sendKeys({ press: key });
}

/**
 * Focuses `target` and fires a paste of `text` at it, as Ctrl+V with `text` on the clipboard would. Firefox drops
 * `clipboardData` given to the ClipboardEvent constructor, so the event gets its DataTransfer as a property instead.
 * Returns the event, to check whether the page cancelled the default paste.
 */
export function pasteText(target: HTMLElement, text: string): ClipboardEvent {
  const data = new DataTransfer();
  data.setData('text/plain', text);
  const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
  if (event.clipboardData?.getData('text/plain') !== text) Object.defineProperty(event, 'clipboardData', { value: data });
  target.focus();
  target.dispatchEvent(event);
  return event;
}

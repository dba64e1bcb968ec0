import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The latest message for the page's live region and its visible toast; it fades after `visibleMs`. */
export class FlashController implements ReactiveController {
  message = '';
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly visibleMs = 8000,
  ) {
    host.addController(this);
  }

  show(message: string): void {
    this.message = message;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.message = '';
      this.host.requestUpdate();
    }, this.visibleMs);
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
  }
}

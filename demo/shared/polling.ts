import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Runs `task` every `intervalMs` while the host is connected and the page is visible, and at once when the
 * page becomes visible again. One run at a time: a slow answer never stacks up requests.
 */
export class PollingController implements ReactiveController {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private connected = false;

  constructor(
    host: ReactiveControllerHost,
    private readonly task: () => Promise<void>,
    private readonly intervalMs: () => number,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.connected = true;
    document.addEventListener('visibilitychange', this.onVisibility);
    void this.runNow();
  }

  hostDisconnected(): void {
    this.connected = false;
    document.removeEventListener('visibilitychange', this.onVisibility);
    clearTimeout(this.timer);
  }

  /** Runs the task now (or joins the run in flight) and schedules the next one. */
  runNow(): Promise<void> {
    clearTimeout(this.timer);
    this.running ??= this.task().finally(() => {
      this.running = undefined;
      this.schedule();
    });
    return this.running;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const interval = this.intervalMs();
    if (!this.connected || document.visibilityState !== 'visible' || interval <= 0) return;
    this.timer = setTimeout(() => void this.runNow(), interval);
  }

  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible') void this.runNow();
    else clearTimeout(this.timer);
  };
}

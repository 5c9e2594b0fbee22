// At most one signal per transaction per interval from PSP webhooks. Each signal is an event in the
// workflow's history, whose signal budget (10,000 per run in Temporal) a PSP repeating itself, or anyone
// who can post to the listener, would otherwise spend: the workflow then loses every later webhook and
// settles by polling only. A hint for a transaction signalled less than `intervalMs` ago is not lost:
// all such hints become one signal at the interval's end.
export type Coalesced = 'sent' | 'coalesced';

interface Window {
  /** The signal to send when the window ends, for the hints that came during it. */
  trailing: (() => Promise<void>) | null;
}

export class SignalCoalescer {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly intervalMs: number,
    private readonly onTrailingFailure: (err: unknown, key: string) => void,
  ) {}

  /** Runs `send` now ('sent', its promise in `sending`), or once at the end of `key`'s current window ('coalesced'). */
  submit(key: string, send: () => Promise<void>): { outcome: Coalesced; sending: Promise<void> | null } {
    const open = this.windows.get(key);
    if (open) {
      open.trailing = send;
      return { outcome: 'coalesced', sending: null };
    }
    if (this.intervalMs > 0) this.open(key);
    return { outcome: 'sent', sending: send() };
  }

  private open(key: string): void {
    const window: Window = { trailing: null };
    this.windows.set(key, window);
    setTimeout(() => {
      this.windows.delete(key);
      const trailing = window.trailing;
      if (!trailing) return;
      this.open(key);
      trailing().catch((err: unknown) => this.onTrailingFailure(err, key));
    }, this.intervalMs).unref();
  }
}

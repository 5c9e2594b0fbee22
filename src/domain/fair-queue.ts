// Who runs next when accounts share a few slots (the QR decoder's threads): each account has at most
// `perAccount` jobs running and `perAccountWaiting` waiting, and a free slot goes to the waiting
// account served least recently (one that arrives after a turn goes before the account just served),
// so one account's heavy jobs delay another's by one job, not all of them. A job that has waited
// `waitMs` without a slot leaves the queue unrun.

export interface FairQueueLimits {
  /** Jobs running at once, all accounts together. */
  slots: number;
  /** Jobs of one account running at once. */
  perAccount: number;
  /** Jobs waiting, all accounts together. */
  waiting: number;
  /** Jobs of one account waiting. */
  perAccountWaiting: number;
  /** How long a job may wait for a slot. */
  waitMs: number;
}

/** Why a job did not run: the queue (or the account's share of it) was full, or its wait ran out. */
export type NotRun = { ran: false; reason: 'full' | 'waited' };
export type Ran<T> = { ran: true; value: T };

interface Job {
  start(): void;
  timer: NodeJS.Timeout;
}

interface AccountTurn {
  running: number;
  waiting: Job[];
  /** When a job of the account last got a slot (a count of slots given); 0 for an account that just came. */
  servedAt: number;
}

export class FairQueue {
  /** Accounts with jobs running or waiting, in the order they came. */
  private readonly accounts = new Map<string, AccountTurn>();
  private slotsGiven = 0;
  private running = 0;
  private waiting = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  /** Runs `work` once a slot is free and the account's turn has come; its failure is the returned promise's. */
  run<T>(accountId: string, work: () => Promise<T>): Promise<Ran<T> | NotRun> {
    const account = this.accounts.get(accountId) ?? { running: 0, waiting: [], servedAt: 0 };
    if (this.waiting >= this.limits.waiting || account.waiting.length >= this.limits.perAccountWaiting) {
      return Promise.resolve({ ran: false, reason: 'full' });
    }
    this.accounts.set(accountId, account);
    return new Promise((resolve, reject) => {
      const job: Job = {
        start: () => {
          clearTimeout(job.timer);
          Promise.resolve()
            .then(work)
            .then((value) => resolve({ ran: true, value }), reject)
            .finally(() => this.finished(accountId, account));
        },
        timer: setTimeout(() => {
          account.waiting.splice(account.waiting.indexOf(job), 1);
          this.waiting -= 1;
          this.forgetIfIdle(accountId, account);
          resolve({ ran: false, reason: 'waited' });
        }, this.limits.waitMs),
      };
      account.waiting.push(job);
      this.waiting += 1;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running < this.limits.slots) {
      let next: AccountTurn | undefined;
      for (const account of this.accounts.values()) {
        if (account.waiting.length === 0 || account.running >= this.limits.perAccount) continue;
        if (!next || account.servedAt < next.servedAt) next = account;
      }
      if (!next) return;
      const job = next.waiting.shift()!;
      this.waiting -= 1;
      next.running += 1;
      next.servedAt = ++this.slotsGiven;
      this.running += 1;
      job.start();
    }
  }

  private finished(accountId: string, account: AccountTurn): void {
    account.running -= 1;
    this.running -= 1;
    this.forgetIfIdle(accountId, account);
    this.dispatch();
  }

  private forgetIfIdle(accountId: string, account: AccountTurn): void {
    if (account.running === 0 && account.waiting.length === 0) this.accounts.delete(accountId);
  }
}

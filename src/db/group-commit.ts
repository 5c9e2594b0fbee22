// Group commit: calls that arrive while a batch of their kind is in PostgreSQL wait for it to end and
// then go together, as the next batch, in one database transaction. A call on an idle group runs at
// once, alone, so nothing waits for company; under load, N concurrent calls cost one transaction (one
// commit, one trigger run per statement, one update of a hot balance) instead of N. One batch at a time:
// two would mostly wait for each other anyway, on the counter and balance rows they both update.
//
// A batch that fails is not anyone's answer: its calls are run again one by one, so each gets its
// own result or its own error, and one bad call never fails the others.

export interface GroupCommitOptions<I, R> {
  /** One call alone. */
  runOne: (item: I) => Promise<R>;
  /**
   * Several calls in one transaction: a result per item, in their order, or undefined for an item
   * the batch left (it is then run alone, after the batch committed).
   */
  runBatch: (items: I[]) => Promise<(R | undefined)[]>;
  /** At most this many calls per batch. */
  maxBatch: number;
  /** Told why a batch failed, before its calls are run one by one. */
  onBatchFailure: (err: unknown, size: number) => void;
}

export interface GroupCommit<I, R> {
  run(item: I): Promise<R>;
}

interface Waiting<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export function groupCommit<I, R>(options: GroupCommitOptions<I, R>): GroupCommit<I, R> {
  const queue: Waiting<I, R>[] = [];
  let inFlight = false;

  const alone = async (waiting: Waiting<I, R>) => {
    try {
      waiting.resolve(await options.runOne(waiting.item));
    } catch (err) {
      waiting.reject(err);
    }
  };

  async function runBatch(batch: Waiting<I, R>[]): Promise<void> {
    let results: (R | undefined)[];
    try {
      results = await options.runBatch(batch.map((w) => w.item));
    } catch (err) {
      options.onBatchFailure(err, batch.length);
      await Promise.all(batch.map(alone));
      return;
    }
    const left = batch.filter((waiting, i) => {
      const result = results[i];
      if (result === undefined) return true;
      waiting.resolve(result);
      return false;
    });
    await Promise.all(left.map(alone));
  }

  function next(): void {
    if (inFlight || queue.length === 0) return;
    inFlight = true;
    const batch = queue.splice(0, options.maxBatch);
    const done = batch.length === 1 ? alone(batch[0]!) : runBatch(batch);
    void done.finally(() => {
      inFlight = false;
      next();
    });
  }

  return {
    run(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        next();
      });
    },
  };
}

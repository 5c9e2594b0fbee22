import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/db/group-commit.js';

/** A group whose runs are recorded and end only when the test says so. */
function recordedGroup(options: { maxBatch?: number; failBatch?: boolean; leave?: number[]; failOne?: number } = {}) {
  const runs: { kind: 'one' | 'batch'; items: number[]; finish: () => void }[] = [];
  const failures: number[] = [];
  const pending = (kind: 'one' | 'batch', items: number[]) => new Promise<void>((finish) => runs.push({ kind, items, finish }));
  const group = groupCommit<number, string>({
    runOne: async (item) => {
      await pending('one', [item]);
      if (item === options.failOne) throw new Error(`item ${item} failed`);
      return `one:${item}`;
    },
    runBatch: async (items) => {
      await pending('batch', items);
      if (options.failBatch) throw new Error('batch failed');
      return items.map((item) => (options.leave?.includes(item) ? undefined : `batch:${item}`));
    },
    maxBatch: options.maxBatch ?? 10,
    onBatchFailure: (_err, size) => failures.push(size),
  });
  return { group, runs, failures };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('runs a call on an idle group at once and alone', async () => {
    const { group, runs } = recordedGroup();
    const result = group.run(1);
    expect(runs.map((r) => [r.kind, r.items])).toEqual([['one', [1]]]);
    runs[0]!.finish();
    expect(await result).toBe('one:1');
  });

  it('sends the calls that came while a run was in flight as one batch, at most maxBatch at a time', async () => {
    const { group, runs } = recordedGroup({ maxBatch: 3 });
    const results = [1, 2, 3, 4, 5].map((item) => group.run(item));
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await tick();
    expect(runs.map((r) => [r.kind, r.items])).toEqual([
      ['one', [1]],
      ['batch', [2, 3, 4]],
    ]);
    runs[1]!.finish();
    await tick();
    expect(runs[2]).toMatchObject({ kind: 'one', items: [5] });
    runs[2]!.finish();
    expect(await Promise.all(results)).toEqual(['one:1', 'batch:2', 'batch:3', 'batch:4', 'one:5']);
  });

  it('runs the items a batch left alone, after it, before the next batch', async () => {
    const { group, runs } = recordedGroup({ leave: [3] });
    const results = [1, 2, 3, 4].map((item) => group.run(item));
    runs[0]!.finish();
    await tick();
    runs[1]!.finish();
    await tick();
    expect(runs.map((r) => [r.kind, r.items])).toEqual([
      ['one', [1]],
      ['batch', [2, 3, 4]],
      ['one', [3]],
    ]);
    const later = group.run(5);
    await tick();
    expect(runs).toHaveLength(3);
    runs[2]!.finish();
    await tick();
    expect(runs[3]).toMatchObject({ kind: 'one', items: [5] });
    runs[3]!.finish();
    expect(await Promise.all([...results, later])).toEqual(['one:1', 'batch:2', 'one:3', 'batch:4', 'one:5']);
  });

  it('runs a failed batch one by one, so that each call gets its own result or its own error', async () => {
    const { group, runs, failures } = recordedGroup({ failBatch: true, failOne: 3 });
    const results = [1, 2, 3, 4].map((item) => group.run(item).catch((err: Error) => err.message));
    runs[0]!.finish();
    await tick();
    runs[1]!.finish();
    await tick();
    expect(failures).toEqual([3]);
    expect(runs.slice(2).map((r) => [r.kind, r.items])).toEqual([
      ['one', [2]],
      ['one', [3]],
      ['one', [4]],
    ]);
    for (const run of runs.slice(2)) run.finish();
    expect(await Promise.all(results)).toEqual(['one:1', 'one:2', 'item 3 failed', 'one:4']);
  });

  it('keeps serving after a call alone fails', async () => {
    const { group, runs } = recordedGroup({ failOne: 1 });
    const failed = group.run(1).catch((err: Error) => err.message);
    runs[0]!.finish();
    expect(await failed).toBe('item 1 failed');
    const next = group.run(2);
    runs[1]!.finish();
    expect(await next).toBe('one:2');
  });
});

// The live status of open payer's pages by server-sent events: one watcher per API process reads, once
// a second, the status of every token some page is watching, charges' and recurrences' alike (one
// query for all of them), and sends each page its status when it changes. A page costs an open
// connection and a map entry, not a request a second; a final status (paid, authorized, expired…) is
// sent and the stream ends.
import type { ServerResponse } from 'node:http';
import type { Sql } from '../../db/database.js';
import type { Deps } from '../../runtime/deps.js';
import type { Logger } from '../../runtime/log.js';
import { readStatuses } from './repository.js';
import type { CheckoutStatus } from './view.js';

export const WATCH_INTERVAL_MS = 1000;
/** A comment line this often keeps proxies and the listener's idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

type Send = (status: CheckoutStatus) => void;

export class StatusWatcher {
  private readonly pages = new Map<string, Set<Send>>();
  /** The open streams, ended when the process stops so that its listener can close. */
  readonly streams = new Set<ServerResponse>();
  private readonly last = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(
    private readonly sql: Sql,
    private readonly log: Logger,
  ) {}

  get openPages(): number {
    let n = 0;
    for (const sends of this.pages.values()) n += sends.size;
    return n;
  }

  /** Sends `status` now and every change after it; the returned function stops watching. */
  watch(token: string, first: CheckoutStatus, send: Send): () => void {
    let sends = this.pages.get(token);
    if (!sends) this.pages.set(token, (sends = new Set()));
    sends.add(send);
    this.last.set(token, JSON.stringify(first));
    send(first);
    this.timer ??= setInterval(() => void this.read(), WATCH_INTERVAL_MS).unref();
    return () => {
      sends.delete(send);
      if (sends.size > 0) return;
      this.pages.delete(token);
      this.last.delete(token);
      if (this.pages.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  endAll(): void {
    for (const res of this.streams) res.end();
  }

  private async read(): Promise<void> {
    if (this.reading || this.pages.size === 0) return;
    this.reading = true;
    try {
      for (const [token, status] of await readStatuses(this.sql, [...this.pages.keys()])) {
        const text = JSON.stringify({ ...status, secondsLeft: 0 });
        if (this.last.get(token) === text) continue;
        this.last.set(token, text);
        for (const send of this.pages.get(token) ?? []) send(status);
      }
    } catch (err) {
      this.log.warn({ err }, 'payer page status read failed');
    } finally {
      this.reading = false;
    }
  }
}

/**
 * Answers `res` with an event stream: each status as one `data:` event, a heartbeat comment, ended
 * after a final status. Written to the response itself, not through Koa's body pipe, so that a page
 * that goes away is a closed response and not an error.
 */
export function openStatusStream(watcher: StatusWatcher, res: ServerResponse, token: string, first: CheckoutStatus): void {
  watcher.streams.add(res);
  res.flushHeaders();
  const heartbeat = setInterval(() => res.write(': \n\n'), HEARTBEAT_MS).unref();
  let stop = () => {};
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watcher.streams.delete(res);
    clearInterval(heartbeat);
    stop();
  };
  res.once('close', close);
  stop = watcher.watch(token, first, (status) => {
    res.write(`data: ${JSON.stringify(status)}\n\n`);
    if (status.state !== 'pending') res.end();
  });
  if (res.writableEnded) close();
}

const watchers = new WeakMap<Deps, StatusWatcher>();

/** The watcher of one API app (one `deps`). */
export function statusWatcher(deps: Deps): StatusWatcher {
  let watcher = watchers.get(deps);
  if (!watcher) watchers.set(deps, (watcher = new StatusWatcher(deps.sql, deps.log)));
  return watcher;
}

/** At shutdown: every open stream ends, so the API listener can close. */
export const endStatusStreams = (deps: Deps): void => watchers.get(deps)?.endAll();

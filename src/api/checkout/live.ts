// The live status of open payer's pages by server-sent events: one watcher per API process reads, once
// a second, the status of every token some page is watching, charges' and recurrences' alike (one
// query for all of them), and sends each page its status when it changes. A page costs an open
// connection and a map entry, not a request a second; a final status (paid, authorized, expired…) is
// sent and the stream ends. The streams are bounded: so many per process (the next is refused, and the
// page polls), and each for so long (then it ends, and the page's EventSource reconnects), so that a
// due-date charge's page open for weeks holds no connection for weeks.
import type { ServerResponse } from 'node:http';
import type { EventStreamBounds } from '../../config/config.js';
import type { Sql } from '../../db/database.js';
import type { Deps } from '../../runtime/deps.js';
import type { Logger } from '../../runtime/log.js';
import { readStatuses } from './repository.js';
import type { CheckoutStatus } from './view.js';

export const WATCH_INTERVAL_MS = 1000;
/** A comment line this often keeps proxies and the listener's idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** The `retry:` of every stream: a page whose stream ended at its lifetime reconnects after this, not the browser's default (3 s in Chromium). */
const RECONNECT_MS = 1000;
/**
 * A stream ends after between (1 - this) and all of its lifetime, at random: the pages that opened
 * together (a burst of payers, the streams a restart sent elsewhere) do not all reconnect together.
 */
const LIFETIME_SPREAD = 0.1;

type Send = (status: CheckoutStatus) => void;

/** One open page: how to send it a status, and the last one it was sent (as `changeKey` words it). */
interface Viewer {
  send: Send;
  seen: string;
}

/** What tells a status from the one before it: not the seconds left, which change every second. */
const changeKey = (status: CheckoutStatus): string => JSON.stringify({ ...status, secondsLeft: 0 });

export class StatusWatcher {
  private readonly pages = new Map<string, Set<Viewer>>();
  /** The open streams, ended when the process stops so that its listener can close. */
  readonly streams = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(
    private readonly sql: Sql,
    private readonly log: Logger,
    readonly bounds: EventStreamBounds,
  ) {}

  /** Whether one more stream would pass CHECKOUT_EVENT_STREAMS_MAX. */
  get full(): boolean {
    return this.streams.size >= this.bounds.maxStreams;
  }

  /**
   * Sends `first` now and every change after it; the returned function stops watching. Only this viewer
   * is sent `first`: the others of the token have theirs, and are sent a change when the next read finds it.
   */
  watch(token: string, first: CheckoutStatus, send: Send): () => void {
    let viewers = this.pages.get(token);
    if (!viewers) this.pages.set(token, (viewers = new Set()));
    const viewer: Viewer = { send, seen: changeKey(first) };
    viewers.add(viewer);
    send(first);
    this.timer ??= setInterval(() => void this.read(), WATCH_INTERVAL_MS).unref();
    return () => {
      viewers.delete(viewer);
      if (viewers.size > 0) return;
      this.pages.delete(token);
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
        const key = changeKey(status);
        for (const viewer of this.pages.get(token) ?? []) {
          if (viewer.seen === key) continue;
          viewer.seen = key;
          viewer.send(status);
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'payer page status read failed');
    } finally {
      this.reading = false;
    }
  }
}

/**
 * Answers `res` with an event stream: a `retry:` first, each status as one `data:` event, a heartbeat
 * comment, ended after a final status or at the end of its lifetime. Written to the response itself,
 * not through Koa's body pipe, so that a page that goes away is a closed response and not an error.
 */
export function openStatusStream(watcher: StatusWatcher, res: ServerResponse, token: string, first: CheckoutStatus): void {
  watcher.streams.add(res);
  res.flushHeaders();
  res.write(`retry: ${RECONNECT_MS}\n\n`);
  const heartbeat = setInterval(() => res.write(': \n\n'), HEARTBEAT_MS).unref();
  const lifetimeMs = watcher.bounds.lifetimeMs * (1 - LIFETIME_SPREAD * Math.random());
  const lifetime = setTimeout(() => res.end(), lifetimeMs).unref();
  let stop = () => {};
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    watcher.streams.delete(res);
    clearInterval(heartbeat);
    clearTimeout(lifetime);
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
  if (!watcher) watchers.set(deps, (watcher = new StatusWatcher(deps.sql, deps.log, deps.config.checkoutEventStreams)));
  return watcher;
}

/** At shutdown: every open stream ends, so the API listener can close. */
export const endStatusStreams = (deps: Deps): void => watchers.get(deps)?.endAll();

// The live connection: one WebSocket to the bot's backend, states in, requests out. It comes
// back by itself after a network drop or a bot restart (growing pauses, a fresh state on each
// connect), and signs in again when the backend says the session has expired.

import type {Action, Request, ServerMessage, View} from './types';

export type Link = 'connecting' | 'open' | 'lost';

export interface LiveHandlers {
  state(view: View, version: number): void;
  link(link: Link): void;
  /** Something the backend refused that was no request of ours (a session it will not take). */
  notice(message: string): void;
  /** The session is no longer good: resolve with a new one (or reject to keep trying). */
  reauthorize(): Promise<string>;
}

/** An answer to one request: accepted, or refused with the backend's localized reason. */
export type Answer = {ok: true} | {ok: false; message: string | null};

const FIRST_PAUSE = 500; // ms before the first retry; doubled each time, up to MAX_PAUSE
const MAX_PAUSE = 8000;
const EXPIRED = 4401; // close codes: the session has expired (sign in again at once),
const REFUSED = 4403; // or was refused (sign in again, after a pause: it may happen again)

export class Live {
  private socket: WebSocket | null = null;
  private pause = FIRST_PAUSE;
  private retry: number | undefined;
  private pending = new Map<string, (answer: Answer) => void>();
  private counter = 0;

  constructor(
    private session: string,
    private readonly place: {instanceId: string; locale: string},
    private readonly handlers: LiveHandlers,
  ) {
    window.addEventListener('online', () => this.reconnectNow());
  }

  start(): void {
    this.open();
  }

  /** Send a request; the promise says whether the backend took it. A request that cannot be
   * sent (the connection is down) is answered at once with no message. */
  request(action: Action, card?: number): Promise<Answer> {
    const socket = this.socket;
    if (socket === null || socket.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ok: false, message: null});
    }
    const request_id = `r${++this.counter}`;
    const message: Request = {type: 'request', request_id, action};
    if (card !== undefined) message.card = card;
    return new Promise((resolve) => {
      this.pending.set(request_id, resolve);
      socket.send(JSON.stringify(message));
    });
  }

  private open(): void {
    this.handlers.link('connecting');
    const url = new URL('api/live', document.baseURI);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('session', this.session);
    url.searchParams.set('instance_id', this.place.instanceId);
    url.searchParams.set('locale', this.place.locale);
    const socket = new WebSocket(url);
    this.socket = socket;
    // Whether the backend will not take this session: then sign in again, not retry with it.
    let expired = false;
    let refused = false;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as ServerMessage;
      if (message.type === 'expired') expired = true;
      if (message.type === 'refused' && message.error) refused = true;
      this.receive(message);
    });
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.dropPending();
      this.handlers.link('lost');
      if (expired || event.code === EXPIRED) void this.signInAgain();
      else if (refused || event.code === REFUSED) this.later(() => void this.signInAgain());
      else this.later(() => this.open());
    });
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'state':
        this.pause = FIRST_PAUSE; // a working connection: the next drop retries quickly again
        this.handlers.link('open');
        // Each connect starts with a fresh state, shown whatever its version: a restarted bot
        // may count versions afresh.
        this.handlers.state(message.view, message.version);
        return;
      case 'ok':
      case 'refused': {
        if (message.request_id === null) {
          if (message.type === 'refused' && !message.error) this.handlers.notice(message.message);
          return;
        }
        const answer = this.pending.get(message.request_id);
        this.pending.delete(message.request_id);
        answer?.(message.type === 'ok' ? {ok: true} : {ok: false, message: message.message});
        return;
      }
      case 'expired':
        return; // the socket closes next; its close handler signs in again
    }
  }

  private async signInAgain(): Promise<void> {
    try {
      this.session = await this.handlers.reauthorize();
      this.open(); // the pauses grow until a state comes: a session refused again waits longer
    } catch {
      this.later(() => void this.signInAgain());
    }
  }

  private later(then: () => void): void {
    window.clearTimeout(this.retry);
    const pause = this.pause * (0.75 + Math.random() * 0.5); // spread out a restart's rush
    this.pause = Math.min(this.pause * 2, MAX_PAUSE);
    this.retry = window.setTimeout(() => {
      this.retry = undefined;
      then();
    }, pause);
  }

  private reconnectNow(): void {
    if (this.socket !== null || this.retry === undefined) return;
    window.clearTimeout(this.retry);
    this.retry = undefined;
    this.pause = FIRST_PAUSE;
    this.open();
  }

  private dropPending(): void {
    for (const answer of this.pending.values()) answer({ok: false, message: null});
    this.pending.clear();
  }
}

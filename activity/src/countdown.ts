// The turn's deadline, counting down on screen. The server says when the turn ends and what
// time it was when it said so (its clock, which the browser's need not match); from then on
// the browser's own monotonic clock counts.

const TICK = 250; // ms
const HURRY = 10; // seconds: the countdown turns red, and a screen reader hears it once

export class Countdown {
  private endsAt: number | null = null; // performance.now() milliseconds
  private timer: number | undefined;
  private hurried = false;
  private mine = false; // the user's own turn: only then is the hurry said aloud

  constructor(
    readonly element: HTMLElement,
    private readonly onHurry: (seconds: number) => void,
  ) {}

  /** Count down to `deadline` (server seconds), given the server's `now`; null stops it. */
  set(deadline: number | null, now: number | undefined, mine: boolean): void {
    const left = deadline === null ? null : deadline - (now ?? Date.now() / 1000);
    const endsAt = left === null ? null : performance.now() + left * 1000;
    if (endsAt === null || this.endsAt === null || Math.abs(endsAt - this.endsAt) > 1000) this.hurried = false;
    this.endsAt = endsAt;
    this.mine = mine;
    window.clearInterval(this.timer);
    this.timer = endsAt === null ? undefined : window.setInterval(() => this.show(), TICK);
    this.show();
  }

  private show(): void {
    if (this.endsAt === null) {
      this.element.hidden = true;
      this.element.textContent = '';
      return;
    }
    const seconds = Math.max(0, Math.ceil((this.endsAt - performance.now()) / 1000));
    this.element.hidden = false;
    this.element.textContent = clock(seconds);
    this.element.setAttribute('datetime', `PT${seconds}S`);
    this.element.classList.toggle('hurry', seconds <= HURRY);
    if (seconds <= HURRY && seconds > 0 && this.mine && !this.hurried) {
      this.hurried = true;
      this.onHurry(seconds);
    }
    if (seconds === 0) window.clearInterval(this.timer);
  }
}

/** 75 → "1:15". */
export function clock(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

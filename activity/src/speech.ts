// What a screen reader hears without looking: new moves, the turn coming to the user, a game
// starting or ending, a round's result. One polite live region; refusals go to the toast,
// which is an alert.

import type {View} from './types';
import type {Words} from './words';

/** The lines of `after` that `before` did not end with: the newest moves, oldest first. The
 * list is a window of the last few moves, so the old tail overlaps the new head. */
export function newLines(before: string[], after: string[]): string[] {
  for (let overlap = Math.min(before.length, after.length); overlap > 0; overlap--) {
    const tail = before.slice(before.length - overlap);
    if (tail.every((line, i) => line === after[i])) return after.slice(overlap);
  }
  return after;
}

/** What changed between two views, said in words (nothing when nothing worth saying did). */
export function announcements(before: View | null, after: View, words: Words): string[] {
  const said: string[] = [];
  if (before === null || before.game_id !== after.game_id) return said; // a page's first look
  if (before.status === 'lobby' && after.status === 'running') said.push(words.t('activity.started'));
  said.push(...newLines(before.recent, after.recent));
  if (after.round_result && after.round_result.round !== before.round_result?.round) said.push(after.round_result.title);
  if (before.status === 'running' && after.status === 'finished') said.push(words.t('game.over'));
  const mine = (view: View) => view.status === 'running' && view.seats.some((s) => s.on_turn && s.you);
  if (mine(after) && !mine(before)) said.push(words.t('activity.your_turn'));
  return said;
}

export class Speaker {
  constructor(private readonly region: HTMLElement) {}

  say(lines: string[]): void {
    if (lines.length === 0) return;
    // Each line its own node: screen readers read additions, and old ones go after a while.
    for (const line of lines) {
      const node = document.createElement('p');
      node.textContent = line;
      this.region.append(node);
    }
    while (this.region.childElementCount > 12) this.region.firstElementChild?.remove();
  }
}

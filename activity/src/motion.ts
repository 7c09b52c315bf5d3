// Short movements that show what just happened: a played card slides from whoever played it
// onto the discard pile, a drawn card from the draw pile into the hand. A fifth of a second,
// never in the way of the next move, and none at all when the system asks for less motion.

import type {HandCard, View} from './types';

const DURATION = 220; // ms

function reduced(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Move `element` from where `from` was to where it is now (it has been laid out there). */
export function slideFrom(element: Element | null, from: DOMRect | null): void {
  if (element === null || from === null || reduced()) return;
  const to = element.getBoundingClientRect();
  if (to.width === 0 || from.width === 0) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.min(from.width / to.width, 1.5);
  element.animate(
    [{transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.6}, {transform: 'none', opacity: 1}],
    {duration: DURATION, easing: 'cubic-bezier(.2,.7,.3,1)'},
  );
}

/** Where things were before a new state is drawn: the card the user just played, the seat
 * on turn (who is about to have played), the draw pile. */
export interface Origins {
  played: DOMRect | null;
  seat: DOMRect | null;
  drawPile: DOMRect | null;
}

export function rectOf(element: Element | null): DOMRect | null {
  return element === null ? null : element.getBoundingClientRect();
}

/** Whether the new view's top card was just played in the same round (not a new deal). */
export function cardWasPlayed(before: View | null, after: View): boolean {
  return (
    before !== null &&
    after.top_card !== null &&
    before.round === after.round &&
    before.status === 'running' &&
    after.discard_pile > before.discard_pile
  );
}

/** Positions in the new hand holding a card the old hand did not have (drawn), same round. */
export function drawnPositions(before: View | null, after: View): number[] {
  if (before === null || before.round !== after.round || !before.hand || !after.hand) return [];
  if (after.hand.length <= before.hand.length) return [];
  const left = new Map<number, number>();
  for (const card of before.hand) left.set(card.value, (left.get(card.value) ?? 0) + 1);
  const fresh: number[] = [];
  after.hand.forEach((card: HandCard, position) => {
    const count = left.get(card.value) ?? 0;
    if (count > 0) left.set(card.value, count - 1);
    else fresh.push(position);
  });
  return fresh;
}

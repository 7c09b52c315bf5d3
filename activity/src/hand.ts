// The user's own hand: real cards, the playable ones raised; a tap, a click or Enter plays
// one. Cards that do not fit stay focusable (a screen reader still hears the whole hand) and
// say so; Draw and Quit sit under the hand.

import {h} from './dom';
import {cardImage} from './table';
import type {HandCard, View} from './types';
import type {Words} from './words';

export interface HandActions {
  play(card: HandCard, from: HTMLElement): void;
  draw(): void;
  quit(): void;
}

export function handCards(view: View, words: Words, act: HandActions): HTMLLIElement[] {
  const mayPlay = view.can.play;
  return (view.hand ?? []).map((card, position) => {
    const playable = mayPlay && card.playable;
    const button = h(
      'button',
      {
        type: 'button',
        class: playable ? 'card playable' : 'card',
        'data-key': `card-${position}`,
        'data-value': card.value,
        'aria-label': playable ? card.label : words.t('activity.not_playable', {card: card.name}),
        'aria-disabled': playable ? null : 'true',
      },
      cardImage(`cards/${card.art}`, card.name),
    );
    button.addEventListener('click', () => {
      if (button.getAttribute('aria-disabled') !== 'true') act.play(card, button);
    });
    return h('li', {class: 'slot'}, button);
  });
}

export function handButtons(view: View, words: Words, act: HandActions): HTMLElement[] {
  return [
    actionButton('draw', words.t('action.draw'), view.can.draw, act.draw),
    actionButton('quit', words.t('action.quit'), view.can.quit, act.quit, 'danger'),
  ];
}

/** A button that stays in the focus order when it cannot be used now (aria-disabled), so the
 * keyboard's place is not lost when the turn passes. */
export function actionButton(
  key: string,
  label: string,
  enabled: boolean,
  onPress: () => void,
  style = '',
): HTMLButtonElement {
  const button = h(
    'button',
    {type: 'button', class: `button ${style}`.trim(), 'data-key': key, 'aria-disabled': enabled ? null : 'true'},
    label,
  );
  button.addEventListener('click', () => {
    if (button.getAttribute('aria-disabled') !== 'true') onPress();
  });
  return button;
}

// What is shown instead of (or beside) the hand: no game yet, the lobby, the round's result,
// the game's end with everyone's rating change and the Rematch button.

import {h, srOnly} from './dom';
import {actionButton} from './hand';
import type {Action, Place, RoundResult, View} from './types';
import type {Words} from './words';

export type Ask = (action: Action) => void;

export function nonePanel(view: View, words: Words, ask: Ask): HTMLElement[] {
  return [
    h('h2', {class: 'panel-title'}, words.t('activity.none')),
    h('p', {class: 'hint'}, words.t('activity.none.hint')),
    buttons(actionButton('open_lobby', words.t('activity.open_lobby'), view.can.open_lobby, () => ask('open_lobby'), 'primary')),
  ];
}

export function lobbyPanel(view: View, words: Words, ask: Ask): HTMLElement[] {
  const offered: HTMLButtonElement[] = [];
  if (view.can.join) offered.push(actionButton('join', words.t('lobby.button.join'), true, () => ask('join'), 'primary'));
  if (view.can.add_ai) offered.push(actionButton('add_ai', words.t('lobby.button.add_ai'), true, () => ask('add_ai')));
  if (view.can.start) offered.push(actionButton('start', words.t('lobby.button.start'), true, () => ask('start'), 'primary'));
  return [
    h('h2', {class: 'panel-title'}, words.t('activity.lobby')),
    h('p', {class: 'hint'}, view.can.start ? words.t('lobby.ready') : words.t('activity.lobby.hint')),
    offered.length ? buttons(...offered) : null,
  ].filter((x): x is HTMLElement => x !== null);
}

export function gameOverPanel(view: View, words: Words, ask: Ask): HTMLElement[] {
  const places = view.game_over?.places ?? [];
  const won = places.some((p) => p.you && (p.rank ?? 0) === 1);
  return [
    h('h2', {class: 'panel-title', id: 'game-over-title'}, words.t('game.over')),
    won ? h('p', {class: 'won'}, words.t('activity.you_won')) : null,
    h('ol', {class: 'places', 'aria-labelledby': 'game-over-title'}, places.map((place, i) => placeItem(place, i, words))),
    view.can.rematch ? buttons(actionButton('rematch', words.t('game.rematch'), true, () => ask('rematch'), 'primary')) : null,
  ].filter((x): x is HTMLElement => x !== null);
}

/** A place as the "Game over" post lists it: a seat whose player left or timed out says so
 * (`note`), one the host kicked has no place (`rank` null). */
function placeItem(place: Place, index: number, words: Words): HTMLLIElement {
  const rank = place.rank === undefined ? index + 1 : place.rank;
  const change = place.rating_change;
  return h(
    'li',
    {class: place.you ? 'place you' : 'place', 'data-rank': rank},
    h('span', {class: 'rank', 'aria-hidden': 'true'}, rank === null ? '–' : String(rank)),
    rank === null ? null : srOnly(`${words.t('activity.place', {place: rank})}: `),
    h('span', {class: 'name'}, place.name),
    h('span', {class: 'points'}, srOnly(`${words.t('activity.points')}: `), String(place.points)),
    change === null
      ? null
      : h(
          'span',
          {class: change > 0 ? 'rating up' : change < 0 ? 'rating down' : 'rating'},
          srOnly(`${words.t('stats.rating')}: `),
          words.signed(change),
        ),
    place.note ? h('span', {class: 'note'}, place.note) : null,
  );
}

export function roundResult(result: RoundResult, words: Words, close: () => void): HTMLElement[] {
  const button = h('button', {type: 'button', class: 'button', 'data-key': 'close-result'}, words.t('activity.close'));
  button.addEventListener('click', close);
  return [
    h('h2', {class: 'panel-title', id: 'result-title'}, result.title),
    h('ul', {class: 'lines'}, result.lines.filter((line) => line.trim()).map((line) => h('li', {}, line))),
    reveals(result),
    buttons(button),
  ].filter((x): x is HTMLElement => x !== null);
}

/** The hands the round's end revealed, as cards: what the lines above say in words, so a
 * screen reader skips it. */
function reveals(result: RoundResult): HTMLElement | null {
  const shown = (result.seats ?? []).filter((seat) => seat.hand.length > 0);
  if (shown.length === 0) return null;
  return h(
    'ul',
    {class: 'reveals', 'aria-hidden': 'true'},
    shown.map((seat) =>
      h(
        'li',
        {class: 'reveal'},
        h('span', {class: 'name'}, seat.name),
        h(
          'span',
          {class: 'mini-cards'},
          seat.hand.map((card) => h('img', {class: 'mini-card', src: `cards/${card.art}`, alt: card.name, width: 120, height: 176})),
        ),
        h('span', {class: 'penalty'}, `+${seat.penalty}`),
      ),
    ),
  );
}

function buttons(...children: HTMLElement[]): HTMLElement {
  return h('div', {class: 'buttons'}, children);
}

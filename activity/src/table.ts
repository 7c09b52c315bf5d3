// The public table: the seats (avatar, name, cards left, tokens, points, whose turn), the draw
// pile and the discard pile with its top card. Everyone in the Activity sees the same.

import {h, srOnly} from './dom';
import type {Seat, View} from './types';
import type {Words} from './words';

export function seatList(view: View, words: Words): HTMLLIElement[] {
  return view.seats.map((seat) => seatItem(seat, view.status === 'lobby', words));
}

function seatItem(seat: Seat, lobby: boolean, words: Words): HTMLLIElement {
  const classes = ['seat'];
  if (seat.on_turn) classes.push('on-turn');
  if (seat.you) classes.push('you');
  if (seat.quit) classes.push('quit');
  return h(
    'li',
    {class: classes.join(' '), 'data-seat': seat.index, 'aria-current': seat.on_turn ? 'true' : null},
    avatar(seat),
    h(
      'span',
      {class: 'who'},
      h('span', {class: 'name'}, seat.name),
      seat.you ? h('span', {class: 'tag'}, words.t('activity.you')) : null,
      seat.is_ai ? h('span', {class: 'tag ai'}, words.t('activity.ai')) : null,
    ),
    lobby ? null : figures(seat, words),
    seat.quit ? h('span', {class: 'out'}, words.t('table.quit_marker')) : null,
    seat.on_turn ? srOnly(words.t('table.on_turn', {name: seat.name})) : null,
  );
}

function figures(seat: Seat, words: Words): HTMLElement {
  return h(
    'span',
    {class: 'figures'},
    figure('cards', words.t('activity.cards'), seat.cards),
    figure('white', words.t('activity.white_tokens'), seat.tokens.white),
    figure('black', words.t('activity.black_tokens'), seat.tokens.black),
    seat.tokens.pink === undefined ? null : figure('pink', words.t('activity.pink_tokens'), seat.tokens.pink),
    figure('score', words.t('activity.points'), seat.score),
  );
}

function figure(kind: string, label: string, value: number): HTMLElement {
  return h(
    'span',
    {class: `figure ${kind}`, title: label},
    h('span', {class: `icon ${kind}`, 'aria-hidden': 'true'}),
    srOnly(`${label}: `),
    String(value),
  );
}

/** The seat's Discord avatar, through the bot (no other origin is allowed); its initial when
 * there is none or it does not load. */
function avatar(seat: Seat): HTMLElement {
  const letter = [...seat.name].find((ch) => /\p{L}|\p{N}/u.test(ch)) ?? '?';
  const initial = h('span', {class: 'initial', 'aria-hidden': 'true'}, letter.toUpperCase());
  const box = h('span', {class: seat.is_ai ? 'avatar ai' : 'avatar'}, initial);
  if (seat.avatar_url) {
    const img = h('img', {src: seat.avatar_url, alt: '', width: 40, height: 40, decoding: 'async'});
    img.addEventListener('load', () => box.classList.add('loaded'));
    img.addEventListener('error', () => img.remove());
    box.append(img);
  }
  return box;
}

/** A card's picture; should it not load, a card-shaped box saying its name (a back: the
 * felt's pattern), never a broken image. */
export function cardImage(src: string, alt: string, extra = ''): HTMLElement {
  const img = h('img', {class: `card-face ${extra}`.trim(), src, alt, width: 120, height: 176, draggable: 'false'});
  img.addEventListener('error', () => {
    const box = h('span', {class: `card-face drawn ${extra}`.trim(), role: alt ? 'img' : null, 'aria-label': alt || null}, alt);
    img.replaceWith(box);
  });
  return img;
}

export function piles(view: View, words: Words): HTMLElement[] {
  const draw = h(
    'div',
    {class: 'pile draw', 'data-pile': 'draw'},
    cardImage('cards/back.png', '', 'back'),
    h('span', {class: 'count'}, srOnly(`${words.t('activity.draw_pile')}: `), String(view.draw_pile)),
  );
  const top = view.top_card;
  const discard = h(
    'div',
    {class: 'pile discard', 'data-pile': 'discard'},
    top
      ? cardImage(`cards/${top.art}`, words.t('table.top_card', {card: top.name}), 'top-card')
      : h('span', {class: 'card-face empty', 'aria-hidden': 'true'}),
    h('span', {class: 'count'}, srOnly(`${words.t('activity.discard_pile')}: `), String(view.discard_pile)),
  );
  return [draw, discard];
}

/** "Your turn" or "Alice's turn"; nothing outside a running game. */
export function turnText(view: View, words: Words): string {
  if (view.status !== 'running') return '';
  const seat = view.seats.find((s) => s.on_turn);
  if (seat === undefined) return '';
  return seat.you ? words.t('activity.your_turn') : words.t('table.on_turn', {name: seat.name});
}

// The Activity's screen: one state from the backend in, the whole page out. Each region is
// redrawn from the state (keeping the keyboard focus), moves are animated and said aloud,
// and a press becomes one request to the backend, whose refusal is shown in its own words.

import {Countdown} from './countdown';
import {byId, h, replaceChildren} from './dom';
import {handButtons, handCards, type HandActions} from './hand';
import type {Answer, Link} from './live';
import {cardWasPlayed, drawnPositions, rectOf, slideFrom, type Origins} from './motion';
import {gameOverPanel, lobbyPanel, nonePanel, roundResult} from './panels';
import {announcements, Speaker} from './speech';
import {piles, seatList, turnText} from './table';
import type {Action, HandCard, View} from './types';
import {Words} from './words';

export type Send = (action: Action, card?: number) => Promise<Answer>;

export class App {
  private view: View | null = null;
  private words = new Words({}, 'en');
  private dismissed = {game: null as number | null, round: -1}; // the last result closed
  private playedFrom: DOMRect | null = null;
  private spectators = new Map<string, string>();
  private readonly speaker = new Speaker(byId('announce'));
  private readonly countdown: Countdown;
  private readonly turn = byId('turn');
  private wasLost = false; // the connection dropped since the last state came
  private linkTimer: number | undefined;

  constructor(
    private readonly send: Send,
    private readonly locale: string,
    private readonly me: string, // the user's id: never among those "watching"
  ) {
    this.countdown = new Countdown(h('time', {class: 'deadline'}), (seconds) =>
      this.speaker.say([this.words.t('activity.seconds_left', {seconds})]),
    );
    byId('quit-back').addEventListener('click', () => byId<HTMLDialogElement>('quit-dialog').close());
    byId('quit-yes').addEventListener('click', () => {
      byId<HTMLDialogElement>('quit-dialog').close();
      void this.ask('quit');
    });
  }

  show(view: View): void {
    const before = this.view;
    const origins: Origins = {
      played: this.playedFrom,
      seat: rectOf(document.querySelector('.seat.on-turn')),
      drawPile: rectOf(document.querySelector('.pile.draw .card-face')),
    };
    this.playedFrom = null;
    this.view = view;
    this.words = new Words(view.words, this.locale);
    this.render(view);
    this.animate(before, view, origins);
    this.speaker.say(announcements(before, view, this.words));
  }

  setLink(link: Link): void {
    const element = byId('link');
    window.clearTimeout(this.linkTimer);
    if (link === 'lost' && this.view !== null) {
      this.wasLost = true;
      element.textContent = this.words.t('activity.lost');
    } else if (link === 'open') {
      element.textContent = this.wasLost ? this.words.t('activity.back') : '';
      this.wasLost = false;
      this.linkTimer = window.setTimeout(() => (element.textContent = ''), 5000);
    }
    element.classList.toggle('lost', this.wasLost);
  }

  /** A message from the backend that answers no press of the user's. */
  notice(message: string): void {
    this.toast(message);
  }

  setSpectators(names: Map<string, string>): void {
    this.spectators = names;
    if (this.view !== null) this.renderWatching(this.view);
  }

  setPip(pip: boolean): void {
    document.body.classList.toggle('pip', pip);
  }

  private render(view: View): void {
    const w = this.words;
    document.documentElement.lang = this.locale;
    byId('boot').hidden = true;
    byId('round').textContent = view.status === 'running' || view.status === 'finished' ? w.t('table.round', {round: view.round}) : '';
    this.renderWatching(view);
    this.renderTable(view);
    this.renderPanel(view);
    this.renderHand(view);
    this.renderResult(view);
    this.renderMoves(view);
  }

  private renderTable(view: View): void {
    const table = byId('table');
    table.hidden = view.status === 'none';
    byId('table-title').textContent = this.words.t('activity.table');
    byId('seats').setAttribute('aria-label', this.words.t('table.seats'));
    replaceChildren(byId('seats'), seatList(view, this.words));
    const playing = view.status === 'running' || view.status === 'finished';
    byId('piles').hidden = !playing;
    byId('centre').hidden = !playing;
    replaceChildren(byId('piles'), playing ? piles(view, this.words) : []);
    const text = turnText(view, this.words);
    const mine = view.status === 'running' && view.seats.some((s) => s.on_turn && s.you);
    this.turn.classList.toggle('mine', mine);
    const deadline = this.countdown.element;
    deadline.setAttribute('aria-label', this.words.t('activity.time_left'));
    replaceChildren(this.turn, text ? h('span', {class: 'whose'}, text) : null, text ? deadline : null);
    this.countdown.set(view.status === 'running' ? view.turn_deadline : null, view.now, mine);
  }

  private renderPanel(view: View): void {
    const panel = byId('panel');
    const ask = (action: Action) => void this.ask(action);
    let content: HTMLElement[] = [];
    if (view.status === 'none') content = nonePanel(view, this.words, ask);
    else if (view.status === 'lobby') content = lobbyPanel(view, this.words, ask);
    else if (view.status === 'finished') content = gameOverPanel(view, this.words, ask);
    else if (view.hand === null) content = [h('p', {class: 'hint'}, this.words.t('activity.watching'))];
    panel.hidden = content.length === 0;
    panel.dataset.status = view.status;
    replaceChildren(panel, content);
  }

  private renderHand(view: View): void {
    const hand = byId('hand');
    hand.hidden = view.status !== 'running' || view.hand === null;
    byId('hand-title').textContent = this.words.t('activity.hand');
    const acts: HandActions = {
      play: (card, from) => this.play(card, from),
      draw: () => void this.ask('draw'),
      quit: () => this.confirmQuit(),
    };
    const cards = byId('cards');
    cards.setAttribute('aria-label', this.words.t('activity.hand'));
    replaceChildren(cards, handCards(view, this.words, acts));
    replaceChildren(byId('actions'), handButtons(view, this.words, acts));
  }

  private renderResult(view: View): void {
    const section = byId('result');
    const result = view.round_result;
    const closed = this.dismissed.game === view.game_id ? this.dismissed.round : -1;
    const open = result !== null && result.round > closed;
    section.hidden = !open;
    if (!open) return replaceChildren(section);
    replaceChildren(
      section,
      roundResult(result, this.words, () => {
        this.dismissed = {game: view.game_id, round: result.round};
        const focusWasHere = section.contains(document.activeElement);
        section.hidden = true;
        if (focusWasHere) (document.querySelector<HTMLElement>('.card.playable') ?? byId('hand')).focus();
      }),
    );
  }

  private renderMoves(view: View): void {
    byId('moves').hidden = view.recent.length === 0;
    byId('moves-title').textContent = this.words.t('table.last_moves');
    replaceChildren(byId('recent'), view.recent.map((line) => h('li', {}, line)));
  }

  private renderWatching(view: View): void {
    const seated = new Set([this.me, ...view.seats.map((s) => s.user_id)]);
    const names = [...this.spectators].filter(([id]) => !seated.has(id)).map(([, name]) => name);
    byId('watching').textContent = names.length ? this.words.t('activity.spectators', {names: this.words.list(names)}) : '';
  }

  private animate(before: View | null, after: View, origins: Origins): void {
    if (cardWasPlayed(before, after)) {
      slideFrom(document.querySelector('.top-card'), origins.played ?? origins.seat);
    }
    const cards = document.querySelectorAll('#cards .card');
    for (const position of drawnPositions(before, after)) slideFrom(cards[position] ?? null, origins.drawPile);
  }

  private play(card: HandCard, from: HTMLElement): void {
    this.playedFrom = from.getBoundingClientRect();
    from.classList.add('leaving');
    void this.ask('play', card.value).then((ok) => {
      if (!ok) from.classList.remove('leaving');
    });
  }

  private confirmQuit(): void {
    byId('quit-question').textContent = this.words.t('action.quit.confirm');
    byId('quit-yes').textContent = this.words.t('action.quit.yes');
    byId('quit-back').textContent = this.words.t('action.quit.back');
    byId<HTMLDialogElement>('quit-dialog').showModal();
    byId('quit-back').focus();
  }

  /** Send one request; show the refusal if there is one. Resolves to whether it was taken. */
  private async ask(action: Action, card?: number): Promise<boolean> {
    const answer = await this.send(action, card);
    if (answer.ok) return true;
    this.playedFrom = null;
    this.toast(answer.message ?? this.words.t('activity.not_sent'));
    return false;
  }

  private toastTimer: number | undefined;

  private toast(text: string): void {
    const toast = byId('toast');
    toast.textContent = text;
    toast.hidden = false;
    window.clearTimeout(this.toastTimer);
    this.toastTimer = window.setTimeout(() => (toast.hidden = true), 6000);
  }
}

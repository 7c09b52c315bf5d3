// The Activity starts here: read the bot's config, shake hands with the Discord client, sign
// in (authorize → the bot's session → authenticate), then follow the game live.

import {App} from './app';
import {Auth, connect, SignInRefused} from './discord';
import {byId, h, replaceChildren} from './dom';
import {Live} from './live';
import type {DiscordSDK} from '@discord/embedded-app-sdk';
import type {Config} from './types';
import {pickLocale, Words} from './words';

async function config(): Promise<Config> {
  const response = await fetch('api/config', {cache: 'no-store'});
  if (!response.ok) throw new Error(`api/config: ${response.status}`);
  return (await response.json()) as Config;
}

/** The words before a session says the user's language: the browser's language. */
function bootWords(config: Config | null): Words {
  const table = config?.boot_words ?? {};
  const locale = pickLocale(navigator.language, Object.keys(table).length ? Object.keys(table) : ['en']);
  return new Words(table[locale] ?? {}, locale);
}

function bootSay(text: string, retry?: {label: string; run: () => void}): void {
  byId('boot').hidden = false;
  byId('boot').classList.toggle('failed', retry !== undefined);
  const button = retry ? h('button', {type: 'button', class: 'button primary', 'data-key': 'retry'}, retry.label) : null;
  button?.addEventListener('click', retry!.run);
  replaceChildren(byId('boot-text'), text, button ? h('br') : null, button);
  button?.focus();
}

function inDiscordFrame(): boolean {
  const query = new URLSearchParams(location.search);
  return query.has('frame_id') && query.has('instance_id') && query.has('platform') && window.parent !== window;
}

let handshake: Promise<DiscordSDK> | null = null; // once per page, kept across retries

async function start(): Promise<void> {
  let cfg: Config | null = null;
  try {
    cfg = await config();
  } catch {
    // Without the config there are no words either; the retry below still has a label.
  }
  const words = bootWords(cfg);
  document.documentElement.lang = words.locale;
  if (!inDiscordFrame()) return bootSay(words.t('activity.boot.outside'));
  bootSay(words.t('activity.boot.connecting'));
  const retry = {label: words.t('activity.boot.retry'), run: () => void start()};
  if (cfg === null) return bootSay(words.t('activity.boot.failed'), retry);
  try {
    handshake ??= connect(cfg);
    const auth = new Auth(await handshake.catch((error: unknown) => {
      handshake = null;
      throw error;
    }), cfg, words.locale);
    const session = await auth.signIn();
    const app = new App(
      (action, card) => live.request(action, card),
      session.locale,
      session.user.id,
    );
    const live = new Live(session.session, {instanceId: auth.instanceId, locale: session.locale}, {
      state: (view) => app.show(view),
      link: (link) => app.setLink(link),
      notice: (message) => app.notice(message),
      reauthorize: async () => (await auth.signIn()).session,
    });
    live.start();
    // Who else is here, and Discord's layout: nice to have, never worth failing for.
    auth.followParticipants((names) => app.setSpectators(names)).catch(() => undefined);
    auth.followLayout((pip) => app.setPip(pip)).catch(() => undefined);
  } catch (error) {
    const reason = error instanceof SignInRefused ? error.message : '';
    bootSay([words.t('activity.boot.failed'), reason].filter(Boolean).join(' '), retry);
  }
}

void start();

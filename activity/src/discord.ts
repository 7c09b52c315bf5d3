// Signing in through Discord's Embedded App SDK: the handshake with the Discord client (the
// frame's parent), authorize → a code, the bot's backend turns it into its own session (the
// client secret never reaches the browser), and authenticate with the access token it returns.

import {DiscordSDK, Events} from '@discord/embedded-app-sdk';
import type {Config, Session} from './types';

/** A sign-in the backend refused, with its localized reason. */
export class SignInRefused extends Error {}

const READY_WITHIN = 15_000; // ms for the Discord client to answer the handshake

/** The SDK's handshake with the Discord client. Throws when the page is not in Discord's
 * frame (no frame_id/instance_id/platform in its address) or the client never answers. */
export async function connect(config: Config): Promise<DiscordSDK> {
  // Our own console is ours: the SDK would otherwise forward every console line to Discord.
  const sdk = new DiscordSDK(config.client_id, {disableConsoleLogOverride: true});
  let timer: number | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = window.setTimeout(() => reject(new Error('the Discord client did not answer')), READY_WITHIN);
  });
  try {
    await Promise.race([sdk.ready(), late]);
  } finally {
    window.clearTimeout(timer);
  }
  return sdk;
}

export class Auth {
  private authenticated = false;

  constructor(
    private readonly sdk: DiscordSDK,
    private readonly config: Config,
    private readonly locale: string, // the browser's, for a refusal before the user is known
  ) {}

  get instanceId(): string {
    return this.sdk.instanceId;
  }

  /** A fresh session of the bot's backend (asked for again whenever the last one expired). */
  async signIn(): Promise<Session> {
    const {code} = await this.sdk.commands.authorize({
      client_id: this.config.client_id,
      response_type: 'code',
      state: '',
      prompt: 'none',
      scope: ['identify'],
    });
    const response = await fetch('api/session', {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({code, instance_id: this.sdk.instanceId, locale: this.locale}),
    });
    if (!response.ok) throw new SignInRefused(await refusal(response));
    const session = (await response.json()) as Session;
    if (!this.authenticated) {
      await this.sdk.commands.authenticate({access_token: session.access_token});
      this.authenticated = true;
    }
    return session;
  }

  /** Who is in the Activity with us (and then every change): `onChange` gets their names. */
  async followParticipants(onChange: (names: Map<string, string>) => void): Promise<void> {
    type Participant = {id: string; username: string; global_name?: string | null; nickname?: string};
    const show = (participants: Participant[]) =>
      onChange(new Map(participants.map((p) => [p.id, p.nickname || p.global_name || p.username])));
    await this.sdk.subscribe(Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, ({participants}) => show(participants));
    const {participants} = await this.sdk.commands.getInstanceConnectedParticipants();
    show(participants);
  }

  /** Discord's layout of the Activity: 1 = picture-in-picture, where only the table fits. */
  async followLayout(onChange: (pip: boolean) => void): Promise<void> {
    await this.sdk.subscribe(Events.ACTIVITY_LAYOUT_MODE_UPDATE, ({layout_mode}) => onChange(layout_mode === 1));
  }
}

async function refusal(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as {message?: string};
    if (body.message) return body.message;
  } catch {
    // not JSON: say what we know
  }
  return `${response.status} ${response.statusText}`;
}

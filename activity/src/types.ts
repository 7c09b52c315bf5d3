// The messages between the bot's backend and this app (/work/notes/activity-contract.md,
// docs/activity.md): what the server sends, what the app asks for.

export interface CardFace {
  code?: string; // the engine's code ("3", "3+", "L", "P")
  value: number; // what a play request sends back; never interpreted here
  art: string; // a path below cards/, e.g. "classic/cs/3p.png"
  name: string; // the card's localized name (alt text)
}

export interface HandCard extends CardFace {
  playable: boolean;
  label: string; // what the card's button says to a screen reader ("Play a llama")
}

export interface Seat {
  index: number;
  name: string;
  user_id: string | null;
  avatar_url: string | null; // relative to the app's base ("avatars/123"), or none
  is_ai: boolean;
  cards: number;
  tokens: {white: number; black: number; pink?: number}; // pink: Party only
  score: number;
  quit: boolean;
  on_turn: boolean;
  you: boolean;
}

export type Status = 'none' | 'lobby' | 'running' | 'finished';

export const ACTIONS = ['play', 'draw', 'quit', 'open_lobby', 'join', 'add_ai', 'start', 'rematch'] as const;
export type Action = (typeof ACTIONS)[number];

export interface RoundResult {
  round: number;
  title: string;
  lines: string[];
  seats?: {index: number; name: string; penalty: number; hand: CardFace[]}[]; // hands revealed
}

export interface Place {
  name: string;
  points: number;
  rating_change: number | null;
  rank?: number | null; // null: not placed (kicked from the game, not rated)
  note?: string | null; // why a seat is last ("left — an AI finished the game; …")
  winner?: boolean;
  you?: boolean;
}

export interface View {
  game_id: number | null;
  status: Status;
  variant: string;
  round: number;
  top_card: CardFace | null;
  draw_pile: number;
  discard_pile: number;
  seats: Seat[];
  turn_deadline: number | null; // unix seconds on the server's clock
  now?: number; // the server's clock when it made this view
  hand: HandCard[] | null; // null: a spectator
  can: Record<Action, boolean>;
  recent: string[]; // localized last moves, newest last
  round_result: RoundResult | null;
  game_over: {places: Place[]} | null;
  words: Record<string, string>;
}

export type ServerMessage =
  | {type: 'state'; version: number; view: View}
  | {type: 'refused'; request_id: string | null; message: string; error?: string}
  | {type: 'ok'; request_id: string}
  | {type: 'expired'};

export interface Request {
  type: 'request';
  request_id: string;
  action: Action;
  card?: number;
}

export interface Config {
  client_id: string;
  boot_words: Record<string, Record<string, string>>;
}

export interface Session {
  access_token: string;
  session: string;
  user: {id: string; name: string; avatar_url: string | null};
  locale: string;
}

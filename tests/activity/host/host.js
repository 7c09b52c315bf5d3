// The Discord client's side of the Embedded App SDK, as the tests need it: the RPC server in
// the parent window that the SDK in the Activity's iframe talks to over postMessage.
//
// The protocol (node_modules/@discord/embedded-app-sdk/output/Discord.mjs): every message is a
// pair [opcode, payload]; opcodes HANDSHAKE 0, FRAME 1, CLOSE 2. The SDK opens with
// [0, {v: 1, encoding: 'json', client_id, frame_id, sdk_version}]; the client answers with the
// READY event, a FRAME {cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {v, config, user}}.
// Commands are FRAMEs {cmd, args, nonce}; each is answered by a FRAME {cmd, evt: null, nonce,
// data} or, refused, {cmd, evt: 'ERROR', nonce, data: {code, message}}. Events the app
// SUBSCRIBEd to arrive as DISPATCH frames with nonce null.
//
// What only Discord's servers know (an OAuth2 code for the user, the user an access token
// belongs to, who is in the activity instance) the page asks the test for through the
// Playwright binding window.lamaDiscord(operation, args).
'use strict';

const HANDSHAKE = 0, FRAME = 1, CLOSE = 2;
const INVALID_COMMAND = 4002, INVALID_CLIENTID = 4007;
const query = new URLSearchParams(location.search);
const clientId = query.get('client_id');
const frameId = crypto.randomUUID();
const app = new URL(query.get('app'));
const iframe = document.getElementById('activity');
const subscriptions = new Set();
// A client that does not answer the first handshakes (?ignore_handshakes=N), as a hung one.
let ignoreHandshakes = Number(query.get('ignore_handshakes') ?? 0);
// Everything said in both directions, for the tests to read: [direction, opcode, payload].
window.hostLog = [];
window.hostState = {handshakes: 0, ready: false, closed: null, authenticated: null};

for (const name of ['instance_id', 'platform', 'guild_id', 'channel_id', 'location_id']) {
  if (query.has(name)) app.searchParams.set(name, query.get(name));
}
app.searchParams.set('frame_id', frameId);

function post(opcode, payload) {
  window.hostLog.push(['out', opcode, payload]);
  iframe.contentWindow.postMessage([opcode, payload], app.origin);
}

function reply(command, data) {
  post(FRAME, {cmd: command.cmd, evt: null, nonce: command.nonce, data});
}

function refuse(command, code, message) {
  post(FRAME, {cmd: command.cmd, evt: 'ERROR', nonce: command.nonce, data: {code, message}});
}

/** Send an event the Activity subscribed to (the tests call this too). */
window.hostDispatch = (evt, data) => {
  if (!subscriptions.has(evt)) return false;
  post(FRAME, {cmd: 'DISPATCH', evt, nonce: null, data});
  return true;
};

async function ready(payload) {
  if (ignoreHandshakes > 0) {
    ignoreHandshakes -= 1;
    return;
  }
  if (payload.v !== 1 || payload.frame_id !== frameId) return post(CLOSE, {code: 4004, message: 'bad handshake'});
  if (payload.client_id !== clientId) return post(CLOSE, {code: 4000, message: 'unknown client_id'});
  window.hostState.handshakes += 1;
  const user = await window.lamaDiscord('user', {});
  post(FRAME, {
    cmd: 'DISPATCH',
    evt: 'READY',
    nonce: null,
    data: {
      v: 1,
      config: {cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api', environment: 'production'},
      user: {id: user.id, username: user.username, discriminator: '0', avatar: user.avatar ?? undefined},
    },
  });
  window.hostState.ready = true;
}

const commands = {
  async AUTHORIZE(args) {
    if (args.client_id !== clientId) throw {code: INVALID_CLIENTID, message: 'client_id does not match'};
    return {code: await window.lamaDiscord('authorize', args)};
  },
  async AUTHENTICATE(args) {
    const answer = await window.lamaDiscord('authenticate', args);
    window.hostState.authenticated = answer.user.id;
    return answer;
  },
  async SUBSCRIBE(args, command) {
    subscriptions.add(command.evt);
    return {evt: command.evt};
  },
  async UNSUBSCRIBE(args, command) {
    subscriptions.delete(command.evt);
    return {evt: command.evt};
  },
  async GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS() {
    return {participants: await window.lamaDiscord('participants', {})};
  },
  async CAPTURE_LOG() {
    return null;
  },
};

async function command(payload) {
  const handler = commands[payload.cmd];
  if (handler === undefined) return refuse(payload, INVALID_COMMAND, `unknown command ${payload.cmd}`);
  try {
    reply(payload, await handler(payload.args ?? {}, payload));
  } catch (error) {
    const code = typeof error?.code === 'number' ? error.code : 5000;
    refuse(payload, code, String(error?.message ?? error));
  }
}

window.addEventListener('message', (event) => {
  if (event.source !== iframe.contentWindow) return;
  if (event.origin !== app.origin) return; // Discord answers only its Activity's own origin
  if (!Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  window.hostLog.push(['in', opcode, payload]);
  if (opcode === HANDSHAKE) void ready(payload);
  else if (opcode === FRAME) void command(payload);
  else if (opcode === CLOSE) window.hostState.closed = payload;
});

iframe.src = app.href;

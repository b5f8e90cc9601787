// The lobby: the new-table and quick-match forms, the open tables, the finished games, the
// leaderboard and a player's rating history. Drawn from the server's lobby messages (docs/SERVER.md
// "The lobby") and again in another language.
'use strict';

// The tables the server has listed or announced, by id, kept up to date by its "lobby" events;
// the finished games, leaderboard and rating history shown, kept to draw them again.
const lobbyTables = new Map();
let lobbyTotal = 0, lobbyNext = null, gamesNext = null, lobbyRender = 0;
let gamesShown = [];      // the finished games listed, every page so far
let leadersShown = [];    // the leaderboard's players
let botLeadersShown = []; // the bot accounts' leaderboard
let historyShown = null;  // the rating history open under it
let quickTimer = null;

// The leaderboard: each player's rating, a click away from its rating history. Bot accounts
// have a list of their own (renderBotLeaders), drawn the same way.
function renderLeaders(players, box = $('leaders')) {
  if (box.id === 'leaders') leadersShown = players;
  box.replaceChildren();
  for (const p of players) {
    const name = p.bot ? `${t('computer')} · ${t('level_' + p.bot)}` : botMarked(p.name, p.bot_account);
    box.append(el('li', { class: p.bot ? 'computer' : undefined },
      el('a', { href: '#', text: name, on: { click: (e) => { e.preventDefault(); showPlayer(p.id); } } }),
      ` ${t('rating')}${p.rating} ±${p.deviation} · ${t('games_count', { n: p.games })}`));
  }
}

function renderBotLeaders(players) {
  botLeadersShown = players;
  $('bot-leaders-box').hidden = !players.length;
  renderLeaders(players, $('bot-leaders'));
}

// A player's rating history: each game (a link to its replay), its date, the rating's change.
function renderHistory(player, games) {
  historyShown = { player, games };
  const box = $('history');
  const name = player.bot ? `${t('computer')} · ${t('level_' + player.bot)}` : botMarked(player.name, player.bot_account);
  const list = el('ol', {});
  for (const g of games) {
    const change = Math.round(g.rating_after - g.rating_before);
    list.append(el('li', {}, el('a', { href: `?game=${g.game}`, text: t('game_no', { n: g.game }) }),
      ` ${dateText(g.time)}  ${Math.round(g.rating_before)} → ${Math.round(g.rating_after)} (${change >= 0 ? '+' : ''}${change})`));
  }
  box.replaceChildren(el('h3', { text: t('history', { name }) }),
    games.length ? list : el('p', { class: 'muted', text: t('no_history') }));
}

// What the server offers, from the library's own tables (its welcome's "choices", docs/SERVER.md):
// the computer levels weakest first, the rule options of docs/RULES.md 12, and each rule set's
// full option text. The page keeps no list of its own: the form's lists stay empty until a
// server says (a static host without a server has no tables to create).
let choices = null;

// An option's text as an object: "a=b,c=d" -> { a: 'b', c: 'd' }.
function optionsOf(text) {
  const opt = {};
  for (const part of String(text || '').split(',')) {
    const [k, v] = part.split('=');
    if (k) opt[k] = v;
  }
  return opt;
}

// The full options of a rule set, or {} while the server has not said.
function presetOptions(preset) {
  return choices ? optionsOf(choices.presets[preset]) : {};
}

// Fills a select with values, each shown by label(value), keeping the value chosen when it stays.
function fillSelect(select, values, label, translate) {
  const keep = select.value;
  select.replaceChildren(...values.map((v) => {
    const o = el('option', { value: v, text: translate ? t(translate + v) : label(v) });
    if (translate) o.dataset.t = translate + v;
    return o;
  }));
  if (values.includes(keep)) select.value = keep;
}

// The levels strongest first, as the page offers them.
function levelsOffered() {
  return choices ? [...choices.levels].reverse() : [];
}

// The server's choices arrived: the rule sets, the numbers of players and the levels of the
// forms come from them; the form's own values are kept where they still apply.
function applyChoices(c) {
  const first = !choices;
  choices = c;
  const row = (name) => c.rule_options.find((o) => o.name === name);
  fillSelect($('opt-preset'), row('preset').values, null, 'preset_');
  const players = row('players');
  const counts = [];
  for (let n = players.max; n >= players.min; n--) counts.push(String(n));
  fillSelect($('opt-players'), counts, (v) => v);
  const level = $('quick-level');
  fillSelect(level, levelsOffered(), null, 'level_');
  if (first) {
    level.value = levelsOffered().includes('expert') ? 'expert' : level.value;
    $('opt-players').value = players.default;
    onPresetChange();
  }
}

// The rule set comes first: the options after it override it (docs/RULES.md 11), and only the
// ones the form changed from the rule set are written, so that a table with the French rules
// unchanged is the French rule set. The target is typed on the rule set's own scale (15 for the
// French edition's 1-5 points).
function rulesText() {
  const preset = presetOptions($('opt-preset').value);
  const parts = [`preset=${$('opt-preset').value}`, `players=${$('opt-players').value}`,
    `target=${$('opt-target').value}`];
  const teyaku = $('opt-teyaku').checked ? 'on' : 'off';
  if ($('opt-players').value === '4' && teyaku !== preset.teyaku) parts.push(`teyaku=${teyaku}`);
  const kingDown = $('opt-kingdown').checked ? 'allowed' : 'forbidden';
  if (kingDown !== preset.king_face_down) parts.push(`king_face_down=${kingDown}`);
  return parts.join(',');
}

// Points as the table's scale shows them: the French edition counts 1-5 where the Japanese
// pieces count 10-50 (the server always sends tens).
function shownPoints(points, scale) {
  return scale === 'ones' ? Math.round(points / 10) : points;
}

// A rule set chosen: the target on its scale, within the option's range, and teyaku and kings
// face-down as the rule set has them.
function onPresetChange() {
  if (!choices) return;
  const preset = presetOptions($('opt-preset').value);
  const unit = preset.scale === 'ones' ? 10 : 1;
  const row = choices.rule_options.find((o) => o.name === 'target');
  Object.assign($('opt-target'), { min: row.min, max: Math.floor(row.max / unit), step: 1, value: Number(row.default) / unit });
  $('opt-teyaku').checked = preset.teyaku === 'on';
  $('opt-kingdown').checked = preset.king_face_down === 'allowed';
}

// A Ko shogi table among Goita's (docs/SERVER.md "Ko shogi tables"): marked as such, played
// and watched on its own page.
function koshogiRow(tb) {
  const seats = tb.seats.map((s, i) => el('span', { class: 'seat-chip', text: `${i ? '☖' : '☗'} ${s ? (s.bot ? t('computer') : s.name) : t('empty')}` }));
  return el('div', { class: 'table-row' },
    el('strong', { text: t('ks_row') }), el('span', { text: t(tb.status) }),
    el('span', { class: 'muted', text: t('ks_clock', { m: tb.main_ms / 60000, s: tb.byoyomi_ms / 1000 }) }), ...seats,
    el('a', { href: `koshogi.html?table=${tb.id}`, text: t('ks_open') }));
}

// A table's time control as the lobby shows it (a bank, a byoyomi, both), or null for none.
function clockInWords(tb) {
  const args = { bank: clockTime(tb.bank_seconds || 0), byo: tb.turn_seconds };
  const key = tb.bank_seconds ? (tb.turn_seconds ? 'lobby_clock' : 'lobby_bank') : tb.turn_seconds ? 'lobby_byo' : null;
  return key ? el('span', { class: 'table-clock', text: t(key, args) }) : null;
}

// The open tables, by number: their rules in words, seats with teams, and what one may do.
function renderTables() {
  const box = $('tables');
  box.replaceChildren();
  const tables = [...lobbyTables.values()].sort((a, b) => a.id - b.id);
  if (!tables.length) box.append(el('p', { class: 'muted', text: t('no_tables') }));
  const mine = seatTokens();
  for (const tb of tables) {
    if (tb.game === 'koshogi') {
      box.append(koshogiRow(tb));
      continue;
    }
    // partners sit opposite: seats 1 and 3 against 2 and 4
    const seats = tb.seats.map((s, i) => el('span', { class: 'seat-chip', text: `${i + 1}. ${displayName(s, i)}${tb.seats.length === 4 ? ` (${teamName(i)})` : ''}` }));
    const row = el('div', { class: 'table-row' },
      el('strong', { text: `#${tb.id}` }), el('span', { text: t(tb.status) }), el('span', { class: 'muted', text: rulesInWords(tb.rules, tb.preset) }), clockInWords(tb), ...seats);
    if (mine[tb.id]) {
      row.append(el('button', { class: 'primary', type: 'button', text: t('return_seat'),
        on: { click: () => { watching = false; send({ type: 'resume', seat_token: mine[tb.id] }); } } }));
    }
    row.append(el('button', { type: 'button', text: t('watch'), on: { click: () => { enterTable(tb.id, true); send({ type: 'watch', table: tb.id }); } } }));
    box.append(row);
  }
  if (lobbyNext !== null) {
    box.append(el('button', { id: 'more-tables', type: 'button', text: t('more_tables', { n: lobbyTotal }),
      on: { click: () => send({ type: 'list', after: lobbyNext }) } }));
  }
}

// The quick-match queue's news: where this player waits (a 'queued' message), or null when it
// waits no more.
function showQueue(msg) {
  clearInterval(quickTimer);
  $('quick-status').hidden = !msg;
  $('quick').disabled = !!msg;
  if (!msg) return;
  const until = Date.now() + msg.seconds_left * 1000;
  const tick = () => {
    const n = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    $('quick-text').textContent = t('queued', { waiting: msg.waiting, players: msg.players, n });
  };
  tick();
  quickTimer = setInterval(tick, 1000);
}

// Shows a page of finished games: the first page replaces the list, an older one is added below.
// The pages shown are kept to draw them again in another language.
function renderGames(games, older) {
  if (!older) gamesShown = [];
  gamesShown.push(...games);
  const box = $('games');
  box.replaceChildren();
  for (const g of gamesShown) {
    const when = dateText(g.finished) + (g.ended ? ` (${t(g.ended)})` : '');
    box.append(el('div', { class: 'game-row' },
      el('strong', { text: `#${g.id}` }), el('span', { class: 'muted', text: when }),
      el('span', { text: `${g.names.map(shownName).join(' / ')}  ${shownPoints(g.score[0], g.scale)} ${t('vs')} ${shownPoints(g.score[1], g.scale)}` }),
      el('a', { href: `?game=${g.id}`, text: t('replay') }),
      el('a', { href: `/records/${g.id}.json`, download: '', text: 'JSON', 'aria-label': `JSON ${t('game_no', { n: g.id })}` }),
      el('a', { href: `/records/${g.id}.txt`, download: '', text: 'TXT', 'aria-label': `TXT ${t('game_no', { n: g.id })}` })));
  }
  if (gamesNext !== null) {
    box.append(el('button', { id: 'older-games', type: 'button', text: t('older_games'),
      on: { click: () => send({ type: 'games', before: gamesNext }) } }));
  }
}

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
let historyShown = null;  // the rating history open under it
let quickTimer = null;

// The leaderboard: each player's rating, a click away from its rating history.
function renderLeaders(players) {
  leadersShown = players;
  const box = $('leaders');
  box.replaceChildren();
  for (const p of players) {
    const name = p.bot ? `${t('computer')} · ${t('level_' + p.bot)}` : p.name;
    box.append(el('li', { class: p.bot ? 'computer' : undefined },
      el('a', { href: '#', text: name, on: { click: (e) => { e.preventDefault(); send({ type: 'history', player: p.id }); } } }),
      ` ${t('rating')}${p.rating} ±${p.deviation} · ${t('games_count', { n: p.games })}`));
  }
}

// A player's rating history: each game (a link to its replay), its date, the rating's change.
function renderHistory(player, games) {
  historyShown = { player, games };
  const box = $('history');
  const name = player.bot ? `${t('computer')} · ${t('level_' + player.bot)}` : player.name;
  const list = el('ol', {});
  for (const g of games) {
    const change = Math.round(g.rating_after - g.rating_before);
    list.append(el('li', {}, el('a', { href: `?game=${g.game}`, text: t('game_no', { n: g.game }) }),
      ` ${dateText(g.time)}  ${Math.round(g.rating_before)} → ${Math.round(g.rating_after)} (${change >= 0 ? '+' : ''}${change})`));
  }
  box.replaceChildren(el('h3', { text: t('history', { name }) }),
    games.length ? list : el('p', { class: 'muted', text: t('no_history') }));
}

// The rule set comes first: the options after it override it (docs/RULES.md 11). The target
// is typed on the rule set's own scale (15 for the French edition's 1-5 points).
function rulesText() {
  const parts = [`preset=${$('opt-preset').value}`, `players=${$('opt-players').value}`,
    `target=${$('opt-target').value}`];
  if ($('opt-players').value === '4') parts.push($('opt-teyaku').checked ? 'teyaku=on' : 'teyaku=off');
  parts.push($('opt-kingdown').checked ? 'king_face_down=allowed' : 'king_face_down=forbidden');
  return parts.join(',');
}

// Points as the table's scale shows them: the French edition counts 1-5 where the Japanese
// pieces count 10-50 (the server always sends tens).
function shownPoints(points, scale) {
  return scale === 'ones' ? Math.round(points / 10) : points;
}

// A rule set chosen: the target on its scale, and teyaku as it has it.
function onPresetChange() {
  const french = $('opt-preset').value === 'french';
  const target = $('opt-target');
  Object.assign(target, french ? { min: 5, max: 100, step: 1, value: 15 } : { min: 50, max: 1000, step: 10, value: 150 });
  $('opt-teyaku').checked = !french;
}

// The open tables, by number: their rules in words, seats with teams, and what one may do.
function renderTables() {
  const box = $('tables');
  box.replaceChildren();
  const tables = [...lobbyTables.values()].sort((a, b) => a.id - b.id);
  if (!tables.length) box.append(el('p', { class: 'muted', text: t('no_tables') }));
  const mine = seatTokens();
  for (const tb of tables) {
    // partners sit opposite: seats 1 and 3 against 2 and 4
    const seats = tb.seats.map((s, i) => el('span', { class: 'seat-chip', text: `${i + 1}. ${displayName(s, i)}${tb.seats.length === 4 ? ` (${teamName(i)})` : ''}` }));
    const row = el('div', { class: 'table-row' },
      el('strong', { text: `#${tb.id}` }), el('span', { text: t(tb.status) }), el('span', { class: 'muted', text: rulesInWords(tb.rules, tb.preset) }), ...seats);
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

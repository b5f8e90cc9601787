// The invariant checker of the fault-injection harness (tests/e2e/chaos.js): what every client
// was shown against what the database holds afterwards.
'use strict';
const { replayCheck, within, scanHidden } = require('./client');

function check(cl, tables, opts = {}) {
  const violations = [];
  const bad = (kind, text) => violations.push(`${kind}: ${text}`);
  // 1. the audit trigger
  const audit = cl.rows('SELECT what, table_id, old, new FROM chaos_audit ORDER BY at');
  const rewrites = audit.filter((a) => a.what === 'stored move written again');
  const epochs = cl.hasColumn('moves', 'epoch') && cl.hasColumn('moves', 'node');
  // (one line per kind and table: a stale server may replace dozens of moves of one table)
  const grouped = {};
  for (const a of audit) {
    if (a.what === 'stored move written again') continue; // the same move sent again by its writer
    const key = `${a.what}: table ${a.table_id}`;
    (grouped[key] = grouped[key] || []).push(`${a.old} -> ${a.new}`);
  }
  for (const [key, list] of Object.entries(grouped)) bad(key.split(':')[0], `${key.slice(key.indexOf(':') + 2)}: ${list.length > 1 ? `${list.length} times, first ` : ''}${list[0]}`);
  // 2. two servers writing one table in one epoch
  if (epochs) {
    for (const row of cl.rows('SELECT table_id, epoch, string_agg(DISTINCT node, \',\') AS nodes FROM moves GROUP BY table_id, epoch HAVING count(DISTINCT node) > 1')) {
      bad('two servers in one epoch', `table ${row.table_id} epoch ${row.epoch}: ${row.nodes}`);
    }
    // a move of an older epoch stored after one of a newer: a fenced-out server still wrote
    for (const row of cl.rows('SELECT a.table_id, a.seq, a.epoch, b.seq AS later, b.epoch AS older FROM moves a JOIN moves b ON b.table_id = a.table_id AND b.seq > a.seq AND b.epoch < a.epoch ORDER BY 1, 2 LIMIT 20')) {
      bad('an older epoch wrote after a newer', `table ${row.table_id}: move ${row.seq} in epoch ${row.epoch}, move ${row.later} in epoch ${row.older}`);
    }
  }
  // 3. games stored or ended twice
  const games = cl.rows('SELECT id, table_id, ended, record FROM games ORDER BY id');
  const byTable = {};
  for (const g of games) (byTable[g.table_id] = byTable[g.table_id] || []).push(g);
  for (const [id, list] of Object.entries(byTable)) {
    if (list.length > 1) bad('game stored twice', `table ${id}: games ${list.map((g) => `${g.id} (${g.ended || 'finished'})`).join(', ')}`);
  }
  for (const t of cl.rows("SELECT t.id FROM tables t WHERE t.ended = 'abandoned' AND EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id AND g.ended IS NULL)")) {
    bad('game ended twice', `table ${t.id} is marked abandoned, yet its game was finished`);
  }
  // 4. every stored record replays
  for (const g of games) {
    const rec = JSON.parse(g.record);
    const res = replayCheck(cl.goita, rec);
    if (!/^ok/.test(res)) bad('record does not replay', `game ${g.id} (table ${g.table_id}): ${res}`);
  }
  // 5. every move a client was shown is in the final record at its place
  const finals = {};
  for (const [id, list] of Object.entries(byTable)) finals[id] = JSON.parse((list.find((g) => !g.ended) || list[list.length - 1]).record);
  let compared = 0;
  const missing = {};
  for (const s of cl.shown) {
    const rec = finals[s.table];
    if (!rec) continue;
    const mine = s.history.split(','), round = rec.rounds[s.round - 1];
    compared++;
    const where = `table ${s.table} round ${s.round}`;
    if (!round) { (missing[where] = missing[where] || []).push(`${s.who} was shown round ${s.round}, the record has ${rec.rounds.length}`); continue; }
    const theirs = round.history.split(',');
    for (let i = 0; i < mine.length; i++) {
      const a = (mine[i] || '').replace(/9/g, '8'), b = (theirs[i] || '').replace(/9/g, '8');
      // a hand: the pieces shown are among those dealt (a writer sorts them); the dealer token:
      // its 5-pawn decisions are written differently by a view and a record; a move: x hides a piece
      const same = i < 4 ? a.length === b.length && within(a.replace(/x/g, ''), b)
        : i === 4 ? a.split('+')[0] === b.split('+')[0]
          : a.length === b.length && [...a].every((ch, k) => ch === 'x' || ch === b[k]);
      if (!same) {
        (missing[where] = missing[where] || []).push(`${s.who} (${s.seat < 0 ? "watching" : `seat ${s.seat + 1}`}, via ${s.via}) was shown ${i < 4 ? 'hand' : 'move'} ${i < 4 ? i + 1 : i - 3} "${mine[i]}", the record has "${theirs[i] || 'nothing'}"`);
        break;
      }
    }
    if (s.game_id && !(byTable[s.table] || []).some((g) => Number(g.id) === Number(s.game_id))) {
      (missing[where] = missing[where] || []).push(`${s.who} was shown game ${s.game_id}, stored as ${(byTable[s.table] || []).map((g) => g.id).join(',') || 'none'}`);
    }
  }
  for (const [where, list] of Object.entries(missing)) bad('shown state not in the record', `${where}: ${list.length} states, e.g. ${list[0]}`);
  // 6. the hidden-information scan of every message of every client
  for (const t of tables) for (const id of t.ids) {
    const rec = finals[id];
    if (!rec) continue;
    const deals = rec.rounds.map((x) => x.history.split(',').slice(0, 4));
    const tokens = (t.tokens && t.tokens[id]) || t.people.filter((p) => p.table === id).map((p) => p.seatToken);
    for (const p of t.all || t.everyone()) {
      const own = { name: p.name, player: p.player, received: p.received.filter((m) => m.table === undefined ? m.type !== 'state' : m.table === id) };
      try { scanHidden(own, tokens.filter((x) => x !== p.seatToken && !(p.tokens && p.tokens.has(x))), deals); } catch (e) { bad('hidden piece shown', e.message.slice(0, 400)); }
    }
  }
  // 7. every game finished (or left resumable: then it is one of `unfinished`)
  for (const id of opts.unfinished || []) bad('game neither finished nor played out', `table ${id}`);
  return { violations, compared, games: games.length, rewrites: rewrites.length, problems: tables.flatMap((t) => (t.all || t.everyone()).flatMap((p) => p.problems.map((x) => `${p.name}: ${x}`))) };
}

module.exports = { check };

// The Ko shogi page's words in Japanese and English (koshogi.html; koshogi.js speaks through
// kt() and rule()). The language is the Goita page's choice (localStorage "goita.lang", which
// web/i18n.js reads too), so the header link from a Japanese lobby opens a Japanese page.
'use strict';

const KS_TEXT = {
  en: {
    title: '広将棋 Ko shogi', language: 'Language', goita: 'Goita', loading: 'Loading the engine…', zoom: 'Larger pieces',
    keys: 'Arrow keys move over the board; Enter or Space chooses a point.',
    board: 'The board, file 19 on the left, rank a at the top',
    finish: 'End the move here', promote: 'Promote', no_promote: 'Do not promote', cancel: 'Cancel',
    first: 'Start', prev_label: 'One move back', next_label: 'One move on', last: 'End',
    play_on: 'Play on from here', game: 'Game', mode: 'Mode',
    mode_black: 'Black (first): you, White: the computer', mode_white: 'Black (first): the computer, White: you',
    mode_hotseat: 'Two players at this screen', think: 'Computer’s time a move', s05: '0.5 s', s1: '1 s', s3: '3 s',
    s10: '10 s', new_game: 'New game', resign: 'Resign', latin: 'Pieces as Latin IDs', latin_ids: '(CH, +CH)', moves: 'Moves',
    download: 'Download the record', load: 'Load a record', position: 'Position', position_label: 'The position as text',
    set_position: 'Play from this position', pieces: 'Pieces', piece: 'Piece', as_white: 'as White',
    black: 'Black', white: 'White', you: 'You', computer: 'Computer',
    black_wins: 'Black wins', white_wins: 'White wins', no_contest: 'No contest',
    no_commander: 'the loser has no commanding piece left', own_flame: 'its own poison flame burned its last commanding piece',
    fourth: 'the same position a fourth time', perpetual: 'perpetual check', no_move: 'no legal move', resignation: 'resignation',
    replay: 'Replay: after move {ply} of {plies}', over: 'Game over. {result}: {reason}.',
    thinking: '{side} (the computer) is thinking…', to_move: '{side} to move (move {number})',
    hint: ': choose a piece to see where it goes', choice: '{piece} from {from}', ask_promote: ': promote?',
    go_on: ': go on, or end the move here', next_point: ': choose the next point',
    wait: 'Wait for the computer’s move.', position_unread: 'The position was not read: {why}',
    record_unread: 'The record was not read: {why}', no_engine: 'the engine could not load (scripts/wasm.sh builds web/wasm/)',
    point_piece: '{point}: {side} {piece}', face: '{id} {kanji} {name}', help_title: '{id} {kanji} {name}',
    help_rule: 'Its rule: {rule} (“{entry}”). Betza: ',
    reach: '{n} points from 10j, alone on an empty board{pass}. Gold: where it may also promote.',
    may_pass: ', and it may pass ({rule})', promotes: 'Promotes to {face} ({rule}).', no_promotion: 'Does not promote ({rule}).',
    moves_as: 'Moves as {face} and counts as that type ({rule}).', reverts: 'May turn back to {face} ({rule}).',
    shots: 'Shots: {shots} a move, up to {range} {unit} away.',
    rule: 'the rule on {name}, {section}', cited: '{text} ({rule})', rule_unknown: 'section {section} of the rules',
    online: 'Online', main_minutes: 'Main time (minutes)', byoyomi_seconds: 'Byoyomi (seconds a move)', your_side: 'Your side',
    opponent: 'Opponent', a_person: 'A person', 'level_ks-novice': 'Computer: novice', 'level_ks-club': 'Computer: club',
    'level_ks-expert': 'Computer: expert', private: 'Private (joined by its link)', create_table: 'Create a table',
    open_tables: 'Open tables', no_tables: 'No open Ko shogi table.', sit_as: 'Sit as {side}', watch: 'Watch',
    clock_text: '{m} min + {s} s', online_table: 'Online table {n}', empty_seat: '(empty)', flag_fell: 'flag fallen',
    byoyomi_left: 'byoyomi {s}', offer_draw: 'Offer a draw', accept_draw: 'Accept the draw', decline_draw: 'Decline the draw',
    draw_offered: 'Your opponent offers a draw.', draw_you_offered: 'You offered a draw.', rematch: 'Rematch',
    record_link: 'The record', invite_link: 'Invite link', waiting_opponent: 'Waiting for an opponent to sit down.',
    draw_agreed: 'Draw', end_time: 'loss on time', end_resignation: 'resignation', end_agreement: 'draw agreed',
    end_defeat: 'the loser has no commanding piece left', end_self_defeat: 'its own poison flame burned its last commanding piece',
    end_repetition: 'the same position a fourth time', end_perpetual_check: 'perpetual check', end_no_moves: 'no legal move',
    record_missing: 'No finished game has this number.',
    err_illegal_move: 'The rules refuse the move: {why}', err_wrong_seat: 'It is your opponent’s turn.',
    err_not_playing: 'No game is being played at the table.', err_seat_taken: 'Someone sits at that side.',
    err_table_started: 'The game has started: its seats are taken.', err_table_unknown: 'No open table has this number.',
    err_table_private: 'The table is private: open it with its invite link.', err_invite_unknown: 'No open table has this invite link.',
    err_too_many_tables: 'You have the most open tables a player may have.', err_rate_limited: 'Too many requests: wait a moment.',
    err_draw_not_offered: 'Your opponent has no draw offer standing.', err_already_seated: 'You sit at this table already.',
    ks_leaderboard: 'Leaderboard', refresh: 'Refresh', no_leaders: 'Nobody has finished a rated Ko shogi game yet.',
    leader_numbers: '{rating} ±{deviation} · rated games: {games}',
    ks_history: 'Ko shogi rating history of {name}', no_history: 'No rated games yet', game_no: 'Game {n}',
    err_storage_failed: 'The server could not reach its database: try again in a moment.',
  },
  ja: {
    title: '広将棋', language: '言語', goita: 'ごいた', loading: 'エンジンを読み込んでいます…', zoom: '駒を大きく',
    keys: '矢印キーで盤の上を動き、エンターキーかスペースキーで点を選びます。',
    board: '盤。左端が19筋、上端がaの段',
    finish: 'ここで手を終える', promote: '成る', no_promote: '成らない', cancel: 'やめる',
    first: '最初', prev_label: '一手戻る', next_label: '一手進む', last: '最後',
    play_on: 'ここから指し継ぐ', game: '対局', mode: '対局の形',
    mode_black: 'あなたが先手でコンピュータと対局', mode_white: 'あなたが後手でコンピュータと対局',
    mode_hotseat: 'この画面で二人が対局', think: 'コンピュータの一手の時間', s05: '0.5秒', s1: '1秒', s3: '3秒',
    s10: '10秒', new_game: '新しい対局', resign: '投了', latin: '駒を略号で表示', latin_ids: '（CH、+CH）', moves: '指し手',
    download: '棋譜を保存', load: '棋譜を読み込む', position: '局面', position_label: '局面の文字列',
    set_position: 'この局面から指す', pieces: '駒の説明', piece: '駒', as_white: '後手の駒として',
    black: '先手', white: '後手', you: 'あなた', computer: 'コンピュータ',
    black_wins: '先手の勝ち', white_wins: '後手の勝ち', no_contest: '無勝負',
    no_commander: '負けた側に指揮駒が残っていない', own_flame: '自分の毒火が最後の指揮駒を焼いた',
    fourth: '同じ局面が四度目になった', perpetual: '連続王手', no_move: '指せる手がない', resignation: '投了',
    replay: '再生：{plies}手のうち{ply}手目の後', over: '終局。{result}：{reason}。',
    thinking: '{side}（コンピュータ）が考えています…', to_move: '{side}の番（{ply}手目）',
    hint: '：駒を選ぶと行き先が示されます', choice: '{from}の{piece}', ask_promote: '：成りますか？',
    go_on: '：続けるか、ここで手を終えます', next_point: '：次の点を選んでください',
    wait: 'コンピュータの手を待ってください。', position_unread: '局面を読めませんでした：{why}',
    record_unread: '棋譜を読めませんでした：{why}', no_engine: 'エンジンを読み込めませんでした（scripts/wasm.sh が web/wasm/ を作ります）',
    point_piece: '{point}：{side}の{piece}', face: '{kanji}（{id}）', help_title: '{kanji}（{id}）',
    help_rule: '規則：{rule}（{entry}）。ベッツァ記法：',
    reach: '空の盤の10jにこの駒だけを置くと、行ける点は{n}{pass}。金色は成ることもできる点。',
    may_pass: '。その場に留まる（パス）こともできる（{rule}）', promotes: '成ると{face}になる（{rule}）。',
    no_promotion: '成らない（{rule}）。', moves_as: '{face}として動き、その種類として扱う（{rule}）。',
    reverts: '{face}に戻ることがある（{rule}）。', shots: '射撃：一手に{shots}回、{range}点先まで。',
    rule: '「{name}」の規則 {section}', cited: '{text}（{rule}）', rule_unknown: '規則 {section}',
    online: 'オンライン対局', main_minutes: '持ち時間（分）', byoyomi_seconds: '秒読み（一手の秒数）', your_side: 'あなたの手番',
    opponent: '相手', a_person: '人', 'level_ks-novice': 'コンピュータ：初級', 'level_ks-club': 'コンピュータ：中級',
    'level_ks-expert': 'コンピュータ：上級', private: '非公開（リンクで招待）', create_table: '対局を作る',
    open_tables: '募集中の対局', no_tables: '募集中の広将棋の対局はありません。', sit_as: '{side}で座る', watch: '観戦',
    clock_text: '{m}分＋{s}秒', online_table: 'オンライン対局 {n}', empty_seat: '（空席）', flag_fell: '時間切れ',
    byoyomi_left: '秒読み {s}', offer_draw: '引き分けを提案', accept_draw: '引き分けに応じる', decline_draw: '引き分けを断る',
    draw_offered: '相手が引き分けを提案しています。', draw_you_offered: '引き分けを提案しました。', rematch: '再戦',
    record_link: '棋譜', invite_link: '招待リンク', waiting_opponent: '相手が座るのを待っています。',
    draw_agreed: '引き分け', end_time: '時間切れ', end_resignation: '投了', end_agreement: '合意の引き分け',
    end_defeat: '負けた側に指揮駒が残っていない', end_self_defeat: '自分の毒火が最後の指揮駒を焼いた',
    end_repetition: '同じ局面が四度目になった', end_perpetual_check: '連続王手', end_no_moves: '指せる手がない',
    record_missing: 'この番号の終局した対局はありません。',
    err_illegal_move: 'その手は指せません：{why}', err_wrong_seat: '相手の番です。',
    err_not_playing: 'この卓では対局中ではありません。', err_seat_taken: 'その手番にはもう人が座っています。',
    err_table_started: '対局が始まっているので座れません。', err_table_unknown: 'その番号の対局はありません。',
    err_table_private: '非公開の対局です。招待リンクから開いてください。', err_invite_unknown: 'その招待リンクの対局はありません。',
    err_too_many_tables: '一人が作れる対局の数の上限です。', err_rate_limited: '要求が多すぎます。少し待ってください。',
    err_draw_not_offered: '相手は引き分けを提案していません。', err_already_seated: 'すでにこの卓に座っています。',
    ks_leaderboard: 'ランキング', refresh: '更新', no_leaders: 'まだ広将棋のレーティング対局を終えた人はいません。',
    leader_numbers: '{rating} ±{deviation}・レーティング対局 {games} 局',
    ks_history: '{name} の広将棋レーティング履歴', no_history: 'まだレーティング対局がありません', game_no: '第 {n} 局',
    err_storage_failed: 'サーバーがデータベースに届きませんでした。少し待ってからもう一度どうぞ。',
  },
};

// The sections of docs/KOSHOGI-RULES.md that the page cites, by name: players read words, not a
// file's section numbers alone.
const KS_SECTIONS = {
  '3.4': ['each piece', '駒の詳細'],
  '4.4': ['jumps', '跳躍'],
  '4.5': ['multi-leg moves', '多段の動き'],
  '4.6': ['shooting', '射撃'],
  '4.7': ['restrictions on capture', '取りの制限'],
  '4.8': ['burning', '焼き'],
  '4.9': ['immobilization', '封じ'],
  '4.10': ['pawns and the drum', '歩兵と鼓'],
  '5.1': ['which pieces promote', '成れる駒'],
  '5.1–5.3': ['promotion', '成り'],
  '5.2': ['promotion in the zone', '敵陣での成り'],
  '5.3': ['promotion by capture', '取りによる成り'],
  '5.4': ['the clerk’s promotion', '記室の成り'],
  '5.5': ['blocked promotions and turning back', '成りの制限と戻り'],
  '6.1': ['commanding pieces', '指揮駒と負け'],
  '6.4': ['repetition', '千日手'],
  '6.5': ['perpetual check', '連続王手'],
  '6.6': ['no legal move', '指せる手がない場合'],
  'D12': ['fog and shooting', '霧と射撃'],
  'D37': ['faces that borrow a movement', '動きを借りる成り駒'],
};

let ksLang = localStorage.getItem('goita.lang') || ((navigator.language || '').startsWith('ja') ? 'ja' : 'en');
if (!KS_TEXT[ksLang]) ksLang = 'en';

// A text in the page's language, {names} filled from args.
function kt(key, args) {
  const s = KS_TEXT[ksLang][key] ?? KS_TEXT.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (args && name in args ? String(args[name]) : m));
}

// A section of the rules named in words with its number: "the rule on shooting, 4.6".
function rule(section) {
  const name = KS_SECTIONS[section];
  return name ? kt('rule', { name: name[ksLang === 'ja' ? 1 : 0], section }) : kt('rule_unknown', { section });
}

// Switches the page's language and remembers it for the Goita page too.
function setLang(next) {
  ksLang = KS_TEXT[next] ? next : 'en';
  localStorage.setItem('goita.lang', ksLang);
}

// Writes the page's fixed words: [data-t] elements' text, [data-t-label] their aria-label.
function translateStatic() {
  document.documentElement.lang = ksLang;
  document.title = kt('title');
  for (const e of document.querySelectorAll('[data-t]')) e.textContent = kt(e.dataset.t);
  for (const e of document.querySelectorAll('[data-t-label]')) e.setAttribute('aria-label', kt(e.dataset.tLabel));
}

// The words among the Betza notation of 3.2 and 3.3, in Japanese (the letters stay: they are the
// notation).
const KS_BETZA_JA = [
  ['a restricted second N', '制限付きの二度目のN'],
  ['(no fW once its own drum is gone)', '（自分の鼓がなくなるとfWなし）'],
  [', and burns', '、焼く'],
  [', and immobilizes', '、封じる'],
  ['two Taoist-priest moves', '高道の動きを二回'],
];

// The Betza line of a face in the page's language.
function betzaText(betza) {
  if (ksLang !== 'ja') return betza;
  return KS_BETZA_JA.reduce((s, [en, ja]) => s.split(en).join(ja), betza);
}

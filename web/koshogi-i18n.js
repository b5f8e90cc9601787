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

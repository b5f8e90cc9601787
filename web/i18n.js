// The browser client's words in Japanese and English, and the words it builds from data: dates,
// rule sets, team names. Every file of the client (loaded after this one) speaks through t().
'use strict';

const TEXT = {
  ja: {
    you: 'あなた', koshogi: '広将棋', name: '名前', save: '保存', new_table: '新しい卓', players: '人数', target: '目標点',
    teyaku: '手役あり', king_face_down: '王の伏せ出しを許す', turn_timer: '秒読み', time_bank: '持ち時間', on_timeout: '時間切れのとき', timeout_computer: 'コンピュータが打つ',
    timeout_pass: 'パス優先 (できなければコンピュータ)', clock: '{name} の残り時間', off: 'なし', create: '卓を作る',
    tables: '卓の一覧', finished_games: '終わった対局', refresh: '更新', lobby: 'ロビーへ', log: '棋譜',
    download_json: '記録 (JSON)', download_txt: '棋譜文字列', no_tables: '卓はまだありません', waiting: '募集中',
    playing: '対局中', over: '終局', sit: '座る', computer: 'コンピュータ', watch: '観戦', start: '開始',
    ks_row: '広将棋', ks_clock: '{m}分＋秒読み{s}秒', ks_open: '広将棋の卓へ', return_seat: '席に戻る', empty: '空席', seat: '席', round: '第{n}局', dealer: '親', your_turn: 'あなたの番です',
    lead_block: '伏せる駒を選んでください', lead_attack: '攻める駒を選んでください',
    answer: '{p} を受ける駒を選ぶか、なしにしてください', then_attack: '次に攻める駒を選んでください',
    pass: 'なし', cancel: 'やり直す', redeal: '配り直す', go: 'このまま打つ',
    decide: '味方が五し: 配り直すか打つかを決めてください', waiting_for: '{name} の番です',
    decide_own: 'あなたが五し: 配り直しを申し出るか、このまま打つかを選んでください',
    decide_agree: '味方が五しで配り直しを申し出ています: 同意するか、このまま打つかを選んでください',
    rule_set: 'ルール', preset_standard: '標準', preset_japanese: '日本の解説 (王は場に出た後か二枚持ち)',
    preset_french: 'フランス版 Goita Shogi (1〜5点)', preset_custom: '独自ルール',
    attack_by: '{name} の攻め', result: '{name} の上がり: {points} 点', doubled: '(倍)',
    teyaku_win: '{name} の手役: {points} 点', game_over: '終局: {team} の勝ち',
    us: '味方', spectating: '観戦中', left_game: '席を外しました',
    reconnecting: '接続が切れました。再接続しています…', tableMoved: 'この卓は別のサーバーに移りました。つなぎ直しています…', replay: '再生', move: '手',
    finished: '終了', vs: '対', rating: 'R', start_needs: '全員そろうと開始できます', seconds: '残り {n} 秒',
    hand_count: '手駒 {n}', error: 'エラー', level_random: 'ランダム', level_rules: 'ルール', level_sampler: 'サンプラー',
    level_expert: 'エキスパート', level_master: 'マスター', level_master_2026_11: 'マスター (2026年11月版)',
    level_fast: '早指し', new_round_soon: '次の局をまもなく配ります',
    more_tables: 'さらに表示 (全 {n} 卓)', older_games: 'さらに前の対局', stand_in: '代打ち中 (コンピュータ)',
    abandoned: '中断',
    password: 'パスワード (8文字以上)', register: 'この名前を登録', login: 'ログイン', logout: 'ログアウト',
    guest: 'ゲスト: 名前を登録すると他の端末からもログインできます', registered_as: '{name} として登録済み',
    leaderboard: 'ランキング', bot_leaderboard: 'ボットのランキング', bot_tag: 'ボット',
    match_title: 'デュプリケート対戦 #{n}: {name}', match_missing: '対戦 #{n} はありません',
    match_result: '{a} 対 {b}: 1 局あたり {mean} ± {se} 点 (前者から後者を引いた差、{deals} 配牌をそれぞれ席を入れ替えて 2 回)',
    match_none_yet: '{a} 対 {b}: まだ 2 回打ち終えた配牌はありません', match_failed: '対戦は止まりました: {why}',
    match_deal: '配牌', match_seats: '席', match_points: '得点', match_record: '棋譜', history: '{name} のレーティング履歴', no_history: 'まだ対局がありません',
    games_count: '{n} 局', game_no: '対局 #{n}',
    private_table: '非公開 (招待リンクで参加)', take_over_option: '観戦者が退席した人の席を引き継げる',
    take_over_seat: '{n} 番の席を引き継ぐ', invite_link: '招待リンク', copy: 'コピー', copied: '招待リンクをコピーしました',
    quick_match: 'クイック対戦', quick_wait: '待ち時間', seconds_unit: '秒', quick_level: 'コンピュータの強さ',
    quick_hint: '上のルールで待っている人と同じ卓に座ります。待ち時間が過ぎると空席にコンピュータが入ります。',
    queued: '対戦相手を待っています ({waiting}/{players} 人) · あと {n} 秒でコンピュータが入ります', cancel_quick: 'やめる',
    rematch: '再戦', rematch_asked: '再戦の希望: {names}', rematch_left: '(あと {n} 秒)',
    rematch_at: '再戦は卓 #{n} で始まりました', chat: 'チャット', send: '送信', spectator: '観戦',
    team_name: '{x}チーム', partner: '味方', opponent: '相手', you_mark: 'あなた',
    row_blocks: '受け', row_attacks: '攻め', row_blocks_long: '{name} の伏せ駒と受け駒', row_attacks_long: '{name} の攻め駒',
    face_down_piece: '伏せ駒', hidden_piece: '見えない伏せ駒', last_move: '最後の手', your_hand: 'あなたの手駒',
    goshi_announced: '{name} に五し (し 5 枚)', goshi_waiting: '{name} の判断を待っています',
    decision_r: '{name}: 配り直し', decision_g: '{name}: このまま打つ',
    round_result: '第{n}局の結果', last_pieces: '上がりの駒', teyaku_hand: '手役の手',
    points_to: '{team} に {points} 点', score_now: '得点', dismiss: '閉じる',
    redeal_result: '五しで配り直し (得点なし)', double_goshi: '{name} の組に五しが二人: {points} 点',
    final_score: '最終得点', prev_round: '« 前の局', prev_move: '‹ 戻る', next_move: '進む ›', next_round: '次の局 »',
    replay_keys: '← → で一手ずつ、Home / End で局の初めと終わり、PageUp / PageDown で局を移動',
    link_here: 'この局面へのリンク', players_n: '{n} 人', to_target: '{n} 点先取', teyaku_on: '手役あり', teyaku_off: '手役なし',
    king_down_on: '王の伏せ出し可', seconds_n: '{n} 秒', round_of: '全 {n} 局', no_moves: '着手なし',
    seat_n: '席 {n}', piece_in_hand: '{p} (手駒)', play_piece: '{p} を出す', row_hand: '手駒', row_hand_long: '{name} の手駒', hands_dealt: '配られた手',
  },
  en: {
    you: 'You', koshogi: '広将棋 Ko shogi', name: 'Name', save: 'Save', new_table: 'New table', players: 'Players', target: 'Target',
    teyaku: 'Teyaku', king_face_down: 'Kings may be led face-down', turn_timer: 'Turn timer (byoyomi)', time_bank: 'Time bank', on_timeout: 'When time runs out',
    timeout_computer: 'the computer moves', timeout_pass: 'pass when allowed (else the computer)', clock: 'time left of {name}', off: 'off',
    create: 'Create', tables: 'Tables', finished_games: 'Finished games', refresh: 'Refresh', lobby: 'Lobby',
    log: 'Moves', download_json: 'Record (JSON)', download_txt: 'History strings', no_tables: 'No tables yet',
    waiting: 'waiting', playing: 'playing', over: 'over', sit: 'Sit', computer: 'Computer', watch: 'Watch',
    start: 'Start', ks_row: 'Ko shogi', ks_clock: '{m} min + {s} s a move', ks_open: 'To the Ko shogi table', return_seat: 'Back to my seat', empty: 'empty', seat: 'Seat', round: 'Round {n}',
    dealer: 'dealer', your_turn: 'Your turn', lead_block: 'Choose the piece to place face-down',
    lead_attack: 'Choose the piece to attack with', answer: 'Answer {p} with a piece, or pass',
    then_attack: 'Now choose the piece to attack with', pass: 'Pass', cancel: 'Start over', redeal: 'Redeal',
    go: 'Play on', decide: 'Your partner has five pawns: redeal or play on?', waiting_for: "{name}'s turn",
    decide_own: 'You have five pawns: propose a redeal, or play on?',
    decide_agree: 'Your partner has five pawns and proposes a redeal: agree, or play on?',
    rule_set: 'Rules', preset_standard: 'Standard', preset_japanese: 'Japanese (king after a king, or both kings)',
    preset_french: 'French edition, Goita Shogi (points 1-5)', preset_custom: 'custom rules',
    attack_by: 'attack by {name}', result: '{name} went out: {points} points', doubled: '(doubled)',
    teyaku_win: '{name} wins by teyaku: {points} points', game_over: 'Game over: {team} won',
    us: 'us', spectating: 'Watching', left_game: 'You left the seat',
    reconnecting: 'Connection lost. Reconnecting…', tableMoved: 'This table moved to another server. Reconnecting…', replay: 'Replay', move: 'move', finished: 'finished',
    vs: 'vs', rating: 'R', start_needs: 'The game can start when every seat is filled',
    seconds: '{n} s left', hand_count: '{n} in hand', error: 'Error', level_random: 'random', level_rules: 'rules',
    level_sampler: 'sampler', level_expert: 'expert', level_master: 'master',
    level_master_2026_11: 'master (November 2026)', level_fast: 'fast', new_round_soon: 'The next round is dealt in a moment',
    more_tables: 'More ({n} tables in all)', older_games: 'Older games', stand_in: 'a computer stands in',
    abandoned: 'abandoned',
    password: 'Password (8 or more characters)', register: 'Claim this name', login: 'Log in', logout: 'Log out',
    guest: 'Guest: claim your name to log in from other devices', registered_as: 'Registered as {name}',
    leaderboard: 'Leaderboard', bot_leaderboard: 'Bots', bot_tag: 'bot',
    match_title: 'Duplicate match #{n}: {name}', match_missing: 'No match #{n}',
    match_result: '{a} against {b}: {mean} ± {se} points per round over {deals} deals, each played twice with the seats swapped (the first less the second)',
    match_none_yet: '{a} against {b}: no deal played twice yet', match_failed: 'The match stopped: {why}',
    match_deal: 'Deal', match_seats: 'Seats', match_points: 'Points', match_record: 'Record', history: 'Rating history of {name}', no_history: 'No games yet',
    games_count: '{n} games', game_no: 'game #{n}',
    private_table: 'Private (join by invite link)', take_over_option: 'Spectators may take over a seat left for good',
    take_over_seat: 'Take over seat {n}', invite_link: 'Invite link', copy: 'Copy', copied: 'Invite link copied',
    quick_match: 'Quick match', quick_wait: 'Wait', seconds_unit: 's', quick_level: 'Computer level',
    quick_hint: 'Sits you with others waiting for the rules above; after the wait, computers take the empty seats.',
    queued: 'Waiting for players ({waiting} of {players} here) · computers join in {n} s', cancel_quick: 'Cancel',
    rematch: 'Rematch', rematch_asked: 'Rematch asked by {names}', rematch_left: '({n} s left)',
    rematch_at: 'The rematch started at table #{n}', chat: 'Chat', send: 'Send', spectator: 'watching',
    team_name: 'Team {x}', partner: 'partner', opponent: 'opponent', you_mark: 'you',
    row_blocks: 'block', row_attacks: 'attack', row_blocks_long: 'face-down and blocking pieces of {name}', row_attacks_long: 'attacking pieces of {name}',
    face_down_piece: 'face-down', hidden_piece: 'hidden face-down piece', last_move: 'last move', your_hand: 'Your hand',
    goshi_announced: '{name} has five pawns', goshi_waiting: 'Waiting for {name} to decide',
    decision_r: '{name}: redeal', decision_g: '{name}: play on',
    round_result: 'Round {n} result', last_pieces: 'Last pieces', teyaku_hand: 'Teyaku hand',
    points_to: '{points} points to {team}', score_now: 'Score', dismiss: 'Close',
    redeal_result: 'Five pawns: redealt (no points)', double_goshi: '{name} and partner both have five pawns: {points} points',
    final_score: 'Final score', prev_round: '« Previous round', prev_move: '‹ Back', next_move: 'Next ›', next_round: 'Next round »',
    replay_keys: '← → step a move, Home / End: start and end of the round, PageUp / PageDown: rounds',
    link_here: 'Link to this position', players_n: '{n} players', to_target: 'to {n}', teyaku_on: 'teyaku', teyaku_off: 'no teyaku',
    king_down_on: 'kings led face-down', seconds_n: '{n} s', round_of: 'of {n}', no_moves: 'no moves',
    seat_n: 'Seat {n}', piece_in_hand: '{p} (in hand)', play_piece: 'play {p}', row_hand: 'hand', row_hand_long: 'pieces in the hand of {name}', hands_dealt: 'Hands as dealt',
  },
};

let lang = localStorage.getItem('goita.lang') || ((navigator.language || '').startsWith('ja') ? 'ja' : 'en');

// A text in the page's language (English when it has none), {names} filled from args.
function t(key, args) {
  let s = (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
  for (const k in args || {}) s = s.replace('{' + k + '}', args[k]);
  return s;
}


// A date and time from the server (SQLite's UTC "YYYY-MM-DD HH:MM:SS" or ISO 8601) in the page's
// language and the visitor's time zone; the text as sent when it cannot be read.
function dateText(stamp) {
  const iso = /Z|[+-]\d\d:?\d\d$/.test(stamp) ? stamp : String(stamp).replace(' ', 'T') + 'Z';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return stamp;
  return new Intl.DateTimeFormat(lang === 'ja' ? 'ja-JP' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

// A rule option text (docs/RULES.md 12) in words: the rule set (a lobby row's preset: a name,
// null for custom rules, undefined when not known), players, target and teyaku.
function rulesInWords(rules, preset) {
  const opt = optionsOf(rules);
  // what the rule set itself has goes without saying
  const own = preset ? presetOptions(preset) : {};
  const words = preset === undefined ? [] : [preset ? t('preset_' + preset) : t('preset_custom')];
  if (opt.players) words.push(t('players_n', { n: opt.players }));
  if (opt.target) words.push(t('to_target', { n: opt.target })); // on the rule set's own scale
  if (opt.teyaku && opt.players === '4') words.push(t(opt.teyaku === 'on' ? 'teyaku_on' : 'teyaku_off'));
  if (opt.king_face_down === 'allowed' && own.king_face_down !== 'allowed') words.push(t('king_down_on'));
  return words.join(' · ');
}

// The one name of a side everywhere (lobby, table, results, replays): partners sit opposite,
// seats 1 and 3 are team A and seats 2 and 4 team B.
function teamName(seat) {
  return t('team_name', { x: seat % 2 ? 'B' : 'A' });
}

// A player's name as stored, with the server's names of computer players ("Computer 2 · expert",
// reserved: docs/SERVER.md) put in the page's language.
function shownName(name) {
  const m = String(name).match(/^Computer (?:(\d+) )?· (\w+)$/);
  if (!m || !TEXT.en['level_' + m[2]]) return name;
  return `${t('computer')}${m[1] ? ' ' + m[1] : ''} · ${t('level_' + m[2])}`;
}

// The server's errors in Japanese, by their code (docs/SERVER.md "Errors"): {table} and {seat}
// are those of the request the error answers, {s} the seconds of its retry_ms. Other codes, and
// every error in English, read as the server wrote them.
const SERVER_ERRORS_JA = {
  seat_taken: '席 {seat} にはもう人が座っています',
  already_seated: 'この卓にもう座っています',
  table_started: '卓 #{table} はもう始まっています',
  seat_invalid: '卓 #{table} にその席はありません',
  table_unknown: '卓 #{table} はありません',
  table_private: '卓 #{table} は非公開です: 招待リンクから参加してください',
  invite_unknown: 'この招待リンクの卓は開いていません',
  seat_unknown: 'この席はもうありません (対局が終わったのかもしれません)',
  seat_taken_back: 'この席には別の画面から戻られました',
  rematch_started: '再戦はあなた抜きで始まりました',
  game_not_over: '対局はまだ終わっていません',
  login_failed: '名前かパスワードが違います',
  login_throttled: 'パスワードの間違いが多すぎます: {s} 秒後にもう一度どうぞ',
  password_common: 'このパスワードはよく使われていて推測されやすいため使えません: 別のものを選んでください',
  name_reserved: 'この名前はコンピュータ用です: 別の名前を選んでください',
  name_taken: 'この名前はほかの人が登録しています: パスワードでログインするか、別の名前を選んでください',
  rate_limited: '操作が多すぎます: {s} 秒後にもう一度どうぞ',
  server_busy: 'サーバーが混み合っています: {s} 秒後にもう一度どうぞ',
  storage_failed: '保存できませんでした: {s} 秒後にもう一度どうぞ',
  server_unavailable: 'この卓のサーバーが応答しません: {s} 秒後にもう一度どうぞ',
  too_many_tables: '開いている卓が多すぎます: どれかを遊ぶか離れてください',
  illegal_move: 'その手は打てません',
  draw_not_offered: '相手から引き分けの申し出はありません',
  message_lost: 'サーバーのメモリが足りず、あなたへの知らせを送れませんでした: 再開するか観戦し直してください',
  not_registered: '名前を登録した人だけができる操作です (ゲストやボットはできません)',
  too_many_bots: 'ボットアカウントはこれ以上作れません: 今あるものを使ってください',
  bot_unknown: 'その番号のボットアカウントはあなたのものではありません',
  bot_revoked: 'このボットのトークンは取り消されたか、新しいものに替わりました',
  match_unknown: 'その番号の対戦はありません',
  match_invalid: '対戦はボットアカウントと、別のボットアカウントかコンピュータのレベルとの間で組みます',
  bot_busy: 'そのボットは接続していないか、ほかの卓で対局中です: あとで挑戦してください',
  not_challenged: 'その卓であなたへの挑戦は待っていません',
};

// A server error ({code, error, retry_ms}) in the page's language, given the request it answers.
function errorText(msg, request) {
  const text = lang === 'ja' && SERVER_ERRORS_JA[msg.code];
  if (!text) return msg.error;
  const args = { s: ((msg.retry_ms || 0) / 1000).toFixed(1) };
  if (request && request.table !== undefined) args.table = request.table;
  if (request && request.seat !== undefined) args.seat = request.seat + 1; // seats are shown from 1
  const missing = (text.match(/\{(\w+)\}/g) || []).some((k) => args[k.slice(1, -1)] === undefined);
  return missing ? msg.error : text.replace(/\{(\w+)\}/g, (_, k) => args[k]);
}

// The finished table's words: seating on create, the replay of a game not found, the round's
// biggest mistakes online.
Object.assign(TEXT.ja, {
  game_missing: '対局 #{n} は見つかりません', to_lobby: 'ロビーへ戻る',
  game_missing_help: '終わった対局だけが再生できます。非公開の卓の対局は招待リンクから開いてください。',
  game_unreachable: '対局 #{n} を開けませんでした', game_unreachable_help: 'サーバーが応答しません。しばらくしてからもう一度どうぞ。',
  fill_computers: '空席をコンピュータで埋める', start_ready: '全員そろいました: 開始できます',
  start_waiting_owner: '全員そろいました: 開始を待っています',
  mistakes: 'この局のいちばん大きな失点', no_mistakes: '失点した手はありません', show_analysis: '解析を見る', hide_analysis: '解析を閉じる',
  mistakes_wait: '解析中…',
});
Object.assign(TEXT.en, {
  game_missing: 'Game #{n} was not found', to_lobby: 'Back to the lobby',
  game_missing_help: 'Only finished games can be replayed. A private table\'s game opens from its invite link.',
  game_unreachable: 'Game #{n} could not be opened', game_unreachable_help: 'The server did not answer. Try again in a moment.',
  fill_computers: 'Fill the empty seats with computers', start_ready: 'Every seat is filled: the game can start',
  start_waiting_owner: 'Every seat is filled: waiting for a seated player to start',
  mistakes: 'Biggest mistakes this round', no_mistakes: 'No move lost points', show_analysis: 'Show the analysis', hide_analysis: 'Hide the analysis',
  mistakes_wait: 'Analysing…',
});

// A table's time control in the lobby: each person's bank, then the byoyomi at every move.
Object.assign(TEXT.ja, { lobby_clock: '持ち時間 {bank} + 秒読み {byo} 秒', lobby_bank: '持ち時間 {bank}', lobby_byo: '秒読み {byo} 秒' });
Object.assign(TEXT.en, { lobby_clock: 'time bank {bank} + {byo} s a move', lobby_bank: 'time bank {bank}', lobby_byo: '{byo} s a move' });

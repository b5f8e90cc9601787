#include <criterion/criterion.h>
#include <string.h>

#include "test_support.h"

Test(notation, move_tokens) {
  goita_move m;
  cr_assert_eq(goita_move_parse("213", 3, &m), GOITA_OK);
  cr_expect(m.type == GOITA_MOVE_PLAY && m.seat == 1 && m.block == 1 && m.attack == 3);
  cr_assert_eq(goita_move_parse("4p", 2, &m), GOITA_OK);
  cr_expect(m.type == GOITA_MOVE_PASS && m.seat == 3);
  cr_assert_eq(goita_move_parse("3r", 2, &m), GOITA_OK);
  cr_expect_eq(m.type, GOITA_MOVE_REDEAL);
  const char *bad[] = {"", "5p", "2", "20", "2x3", "2133", "p2", "0p"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_expect_eq(goita_move_parse(bad[i], strlen(bad[i]), &m), GOITA_EPARSE, "%s", bad[i]);
  char buf[8];
  cr_expect_eq(goita_move_format(goita_move_play(0, 9, 8), buf, sizeof buf), 3);
  cr_expect_str_eq(buf, "198");
  cr_expect_eq(goita_move_format(goita_move_pass(0), buf, 2), GOITA_ENOSPACE);
}

/* Examples E1-E8 of docs/RECORDS.md 1.4: read, then written back (hands sorted as the writer does). */
Test(notation, record_format_examples_round_trip) {
  const char *in[] = {
      "12345678,12345679,11112345,11112345,s1,113,2p,3p,431,1p,2p,315",
      "22221678,11113345,11145679,11345345,s1,112,2p,3p,4p,162,2p,3p,4p,172,2p,3p,4p,128",
      "12345678,12345679,11112345,11112345,s1,113,2p,3p,431,1p,2p,315,4p,1p,2p,343,4p,1p,2p,321,4p,1p,213,3p,"
      "4p,1p,245,3p,452,126,262,3p",
      "11244556,12234569,11123378,11113457,s3,371,411,115,2p,3p,4p,145,252,3p,4p,124,2p",
      "12667789,12345543,11112345,11112345,s1,116,2p,3p,4p,126,2p,3p,4p,177,2p,3p,4p,189",
      "11123568,11122579,23344557,11113446,s3,325,4p,182,227,3p,4p,1p,295,3p,4p,1p,221,3p,411,115,2p,357,4p,1p,"
      "2p,333,431,111,211",
      "12234455,11125789,11134467,11123356,s3,334,4p,1p,289,3p,4p,1p,225,3p,4p,153,2p,3p,431,115,2p,3p,456,1p,"
      "2p,3p,412,124,2p,347,4p,1p,2p,316,4p,1p,2p,311",
      "11122568,12344567,11234579,11113345,s4,451,1p,215,353,4p,185,2p,394,443,1p,234,3p,4p,1p,224,3p,4p,1p,276",
  };
  const char *hands_sorted[] = {NULL, "12222678,11113345,11145679,11334455", NULL, NULL,
                                "12667789,12334455", NULL, NULL, NULL};
  for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
    /* The last three are goita-core's random rounds; goita-core allows a face-down king. */
    const char *rules = i >= 5 ? "king_face_down=allowed" : "";
    goita_round r = test_round(rules, in[i]);
    char out[512];
    cr_assert_gt(goita_history_format(&r, out, sizeof out), 0);
    if (hands_sorted[i]) {
      cr_expect_eq(strncmp(out, hands_sorted[i], strlen(hands_sorted[i])), 0, "%s", out);
      cr_expect_str_eq(strchr(out, 's'), strchr(in[i], 's'));
    } else {
      cr_expect_str_eq(out, in[i]);
    }
    goita_round again = test_round(rules, out);
    cr_expect_eq(memcmp(&r, &again, sizeof r), 0, "read-write-read changes the round: %s", out);
  }
}

Test(notation, finished_examples_score_as_documented) {
  goita_round r = test_round("", "22221678,11113345,11145679,11345345,s1,112,2p,3p,4p,162,2p,3p,4p,172,2p,3p,4p,128");
  cr_expect(goita_round_over(&r));
  cr_expect_eq(r.result.winner, 0);
  cr_expect_eq(r.result.points, 50);
  r = test_round("king_face_down=allowed", "11123568,11122579,23344557,11113446,s3,325,4p,182,227,3p,4p,1p,295,3p,4p,1p,221,3p,411,115,2p,"
                     "357,4p,1p,2p,333,431,111,211");
  cr_expect(goita_round_over(&r));
  cr_expect_eq(r.result.winner, 1);
  cr_expect_eq(r.result.points, 10);
}

Test(notation, errors_name_the_token) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_round r;
  memset(&r, 0x5a, sizeof r);
  goita_round before = r;
  goita_error err;
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,12345679,11112345,11112345,s1,113,2p,3p,441", &err),
               GOITA_EILLEGAL);
  cr_expect_eq(err.position, 8);
  cr_expect(strstr(err.message, "token 9 \"441\"") != NULL, "%s", err.message);
  cr_expect(strstr(err.message, "銀 cannot answer an attack of 馬") != NULL, "%s", err.message);
  cr_expect_eq(memcmp(&r, &before, sizeof r), 0, "nothing is half-applied");
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,12345679,11112345,11112345,s1,113,2q", &err), GOITA_EPARSE);
  cr_expect_eq(err.position, 6);
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,12345679,11112345", &err), GOITA_EPARSE);
  cr_expect_eq(err.position, 3);
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,12345679,11112345,11112345,t1", &err), GOITA_EPARSE);
  cr_expect_eq(err.position, 4);
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,xxxxxxxx,11112345,11112345,s1", &err), GOITA_EPARSE);
  cr_expect(strstr(err.message, "hidden") != NULL);
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,12345679,11112345,11112345,s1+3x", &err), GOITA_EPARSE);
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,12345679,11112345,11112345,s1+3r", &err), GOITA_EILLEGAL);
  cr_expect_eq(goita_history_parse(&r, &rules, "12345678,12345679,11112345,11112345,s1,113,2p,3p,4p,1p", &err),
               GOITA_EILLEGAL);
  cr_expect(strstr(err.message, "leads and cannot pass") != NULL);
  cr_expect_eq(memcmp(&r, &before, sizeof r), 0, "nothing is half-applied");
}

Test(notation, decisions_round_trip) {
  const char *cases[] = {"11111234,12345678,12345679,11123455,s1+3r", "11111234,11111567,22334568,23445579,s1+3r+4g,113",
                         "11111234,12345678,12345679,11123455,s1+3g"};
  for (size_t i = 0; i < 3; i++) {
    goita_round r = test_round("", cases[i]);
    char out[256];
    goita_history_format(&r, out, sizeof out);
    cr_expect_str_eq(out, cases[i]);
  }
  /* A played round after a 5-pawn deal reads as "play" and is written like goita-core. */
  goita_round r = test_round("", "11111234,12345678,12345679,11123455,s1+3g,113");
  char out[256];
  goita_history_format(&r, out, sizeof out);
  cr_expect_str_eq(out, "11111234,12345678,12345679,11123455,s1,113");
}

/* The hidden views of docs/RECORDS.md 1.4, written exactly as goita-core writes them. */
Test(notation, hidden_views_of_record_format) {
  goita_round r = test_round("", "12345678,12345679,11112345,11112345,s1,113,2p,3p,431,1p,2p,3p,412");
  const struct {
    int seat;
    const char *text;
  } cases[] = {
      {0, "12345678,xxxxxxxx,xxxxxxxx,123xxxxx,s1,113,2p,3p,431,1p,2p,3p,4x2"},
      {1, "3xxxxxxx,12345679,xxxxxxxx,123xxxxx,s1,1x3,2p,3p,431,1p,2p,3p,4x2"},
      {GOITA_OBSERVER, "3xxxxxxx,xxxxxxxx,xxxxxxxx,123xxxxx,s1,1x3,2p,3p,431,1p,2p,3p,4x2"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    goita_view v;
    goita_round_view(&r, cases[i].seat, &v);
    char out[256];
    cr_assert_gt(goita_history_format_view(&v, out, sizeof out), 0);
    cr_expect_str_eq(out, cases[i].text);
    goita_view back;
    goita_error err;
    cr_assert_eq(goita_history_parse_view(&back, &r.rules, cases[i].text, GOITA_VIEWER_INFER, &err), GOITA_OK, "%s",
                 err.message);
    cr_expect_eq(back.seat, cases[i].seat);
    cr_expect_eq(memcmp(&back, &v, sizeof v), 0, "reading %s does not give the view back", cases[i].text);
  }
}

/* A finishing lead is turned up; a 5-pawn hand shows its pawns; a teyaku hand is shown whole. */
Test(notation, hidden_views_show_what_the_table_shows) {
  goita_round r = test_round("", "12667789,12345543,11112345,11112345,s1,116,2p,3p,4p,126,2p,3p,4p,177,2p,3p,4p,189");
  goita_view v;
  char out[256];
  goita_round_view(&r, 1, &v);
  goita_history_format_view(&v, out, sizeof out);
  cr_expect_str_eq(out, "66789xxx,12334455,xxxxxxxx,xxxxxxxx,s1,1x6,2p,3p,4p,1x6,2p,3p,4p,1x7,2p,3p,4p,189");
  r = test_round("", "11111234,12345678,12345679,11123455,s1,113");
  goita_round_view(&r, 3, &v);
  goita_history_format_view(&v, out, sizeof out);
  cr_expect_str_eq(out, "111113xx,xxxxxxxx,xxxxxxxx,11123455,s1,1x3");
  r = test_round("", "11111123,12345678,12345679,11234455,s2");
  goita_round_view(&r, GOITA_OBSERVER, &v);
  goita_history_format_view(&v, out, sizeof out);
  cr_expect_str_eq(out, "11111123,xxxxxxxx,xxxxxxxx,xxxxxxxx,s2");
  goita_view back;
  cr_assert_eq(goita_history_parse_view(&back, &r.rules, out, GOITA_OBSERVER, NULL), GOITA_OK);
  cr_expect_eq(back.result.end, GOITA_END_TEYAKU);
  cr_expect_eq(back.result.points, 20);
}

/* Every prefix of many random rounds, seen by every seat and the observer: written, read back
 * as that viewer, the view is the same and writes out the same. */
Test(notation, hidden_views_round_trip) {
  const char *options[] = {"", "king_face_down=allowed", "teyaku=off", "players=3", "players=2",
                           "king_attack=a_or_b", "king_attack=a_or_last"};
  goita_rng rng;
  goita_rng_seed(&rng, 11);
  int compared = 0;
  for (size_t o = 0; o < sizeof options / sizeof *options; o++) {
    goita_rules rules;
    cr_assert_eq(goita_rules_parse(&rules, options[o], NULL), GOITA_OK);
    for (int game = 0; game < 150; game++) {
      goita_round r;
      goita_round_deal(&r, &rules, game % rules.players, goita_rng_next(&rng));
      for (;;) {
        for (int seat = GOITA_OBSERVER; seat < r.players; seat++) {
          goita_view v, back;
          goita_round_view(&r, seat, &v);
          char text[256], again[256];
          cr_assert_gt(goita_history_format_view(&v, text, sizeof text), 0);
          goita_error err;
          cr_assert_eq(goita_history_parse_view(&back, &rules, text, seat, &err), GOITA_OK, "[%s] seat %d %s: %s",
                       options[o], seat, text, err.message);
          cr_assert_eq(memcmp(&back, &v, sizeof v), 0, "[%s] seat %d: %s reads back differently", options[o], seat,
                       text);
          goita_history_format_view(&back, again, sizeof again);
          cr_assert_str_eq(again, text);
          compared++;
        }
        if (goita_round_over(&r)) break;
        test_random_move(&r, &rng);
      }
    }
  }
  cr_expect_gt(compared, 50000);
}

/* goita-core views found by the differential test, where the unseen kings must go where they
 * leave room for the unseen pawns (no hand may hold 5 unannounced). */
Test(notation, hidden_views_that_need_a_careful_deal) {
  const struct {
    int viewer;
    const char *text;
  } cases[] = {
      {2, "112258xx,22345566,11333577,1444xxxx,s4,4x4,181,2p,317,4p,1p,2p,373,4p,1p,234,3p,444,1p,2p,3p,4x1,115,252,"
          "3p,4p,122,226,3p,4p,1p,256"},
      {0, "13344556,23445677,2239xxxx,1111125x,s1,146,263,332,425,154,245,392,4p,1p,227,3p,4p,1p,274"},
      /* here a king must be face-down: the only other unseen piece cannot fill seat 4 */
      {1, "114557xx,22334567,123456xx,111123xx,s4,4x2,1p,226,365,4p,154,2p,342,4p,1p,223,331,4p,115,257,3p,4p,171,2p,3p,411,1p,2p,3p,4x3,1p,2p,3p,411"},
  };
  goita_rules rules;
  goita_rules_parse(&rules, "king_face_down=allowed", NULL);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    goita_view v;
    goita_error err;
    cr_expect_eq(goita_history_parse_view(&v, &rules, cases[i].text, cases[i].viewer, &err), GOITA_OK, "%s: %s",
                 cases[i].text, err.message);
  }
}

Test(notation, hidden_view_errors) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_view v;
  memset(&v, 0x5a, sizeof v);
  const goita_view before = v;
  goita_error err;
  const struct {
    const char *text;
    int viewer, status, position;
    const char *reason;
  } cases[] = {
      /* a defence cannot be face-down */
      {"12345678,xxxxxxxx,xxxxxxxx,123xxxxx,s1,113,2x3", 0, GOITA_EILLEGAL, 6, "only when leading"},
      /* the viewer sees its own pieces */
      {"12345678,xxxxxxxx,xxxxxxxx,123xxxxx,s1,1x3", 0, GOITA_EPARSE, 5, "written in the open"},
      {"1234567x,xxxxxxxx,xxxxxxxx,123xxxxx,s1,113", 0, GOITA_EPARSE, 0, "written in full"},
      /* a fifth gold */
      {"12345678,xxxxxxxx,xxxxxxxx,123xxxxx,s1,113,2p,3p,455,1p,255", 0, GOITA_EILLEGAL, 10, "more times"},
      {"12345678,xxxxxxxx,xxxxxxxx,5555xxxx,s1", 0, GOITA_EDEAL, 3, "too many"},
      /* seat 2 attacks with 玉 with no king face-up, not its last piece, and 王 in seat 1's hand */
      {"12345678,xxxxxxxx,xxxxxxxx,xxxxxxxx,s2,2x9", 0, GOITA_EILLEGAL, 5, "king may attack"},
      /* a 6-pawn hand is teyaku and shown in full */
      {"12345678,111111xx,xxxxxxxx,xxxxxxxx,s1", 0, GOITA_EPARSE, 1, "teyaku"},
      /* the two kings are seen elsewhere, so seat 1 would need to place a king face-down */
      {"xxxxxxxx,11111234,xxxxxxxx,xxxxxxxx,s1,1x2", 1, GOITA_OK, 0, ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const int st = goita_history_parse_view(&v, &rules, cases[i].text, cases[i].viewer, &err);
    cr_expect_eq(st, cases[i].status, "%s: %s", cases[i].text, err.message);
    if (st == GOITA_OK || cases[i].status == GOITA_OK) continue;
    cr_expect_eq(err.position, cases[i].position, "%s: %s", cases[i].text, err.message);
    cr_expect(strstr(err.message, cases[i].reason) != NULL, "%s: %s", cases[i].text, err.message);
    cr_expect_eq(memcmp(&v, &before, sizeof v), 0, "nothing is half-applied");
  }
}

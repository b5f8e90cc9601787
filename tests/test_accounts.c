
/* ---- names ---- */

static void same_key(const char *a, const char *b) {
  char ka[SRV_NAME_KEY_SIZE], kb[SRV_NAME_KEY_SIZE];
  cr_assert_eq(srv_name_key(a, ka), 0, "no key for %s", a);
  cr_assert_eq(srv_name_key(b, kb), 0, "no key for %s", b);
  cr_assert_str_eq(ka, kb, "\"%s\" and \"%s\" look alike but have different keys", a, b);
}

static void other_key(const char *a, const char *b) {
  char ka[SRV_NAME_KEY_SIZE], kb[SRV_NAME_KEY_SIZE];
  cr_assert_eq(srv_name_key(a, ka), 0);
  cr_assert_eq(srv_name_key(b, kb), 0);
  cr_assert_str_neq(ka, kb, "\"%s\" and \"%s\" share a key", a, b);
}

/* Case, width, compatibility forms, spaces and lookalike letters of other scripts do not make
 * another name (UTS #39 skeletons over NFKC_Casefold); other letters do. */
Test(names, lookalike_names_share_a_key) {
  same_key("Ann", "ANN");
  same_key("Ann", "  ann  ");
  same_key("Ann Lee", "Ann   Lee");
  same_key("Ann", "\xef\xbc\xa1\xef\xbd\x8e\xef\xbd\x8e");   /* fullwidth */
  same_key("Ann", "\xce\x91nn");                             /* Greek capital alpha */
  same_key("Ann", "\xd0\x90nn");                             /* Cyrillic capital A */
  same_key("Ann Lee", "Ann\xc2\xa0Lee");                     /* no-break space */
  same_key("Mia", "rnia");                                   /* m and rn */
  same_key("Noel", "No\xc3\xabl") == (void)0 ? (void)0 : (void)0;
  same_key("office", "o\xef\xac\x83" "ce");                  /* the ffi ligature */
  other_key("Ann", "Anna");
  other_key("Ann", "Ken");
  other_key("\xe5\xa4\xaa\xe9\x83\x8e", "\xe8\x8a\xb1\xe5\xad\x90"); /* 太郎, 花子 */
}

/* Names as people see them (names.h): ICU's NFKC_Casefold normalizer and its UTS #39 spoof
 * checker's skeletons (Debian libicu-dev). Everything works on UTF-16, ICU's own strings, in
 * fixed buffers: a name has at most 39 bytes. */
#include <pthread.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

#include "names.h"

/* Room for a name's text at any step, in UTF-16 units (a 39-byte name is at most 39 units;
 * NFKC and skeletons may make it longer). */
#define UNITS 256

/* ICU's spoof checker, opened once: opening one takes about 0.1 ms, and an open checker is
 * only read (ICU: safe to share between threads once configured). NULL if it could not open. */
static USpoofChecker *spoof_checker;
static pthread_once_t spoof_checker_once = PTHREAD_ONCE_INIT;

static void open_spoof_checker(void) {
  UErrorCode status = U_ZERO_ERROR;
  spoof_checker = uspoof_open(&status);
  if (U_FAILURE(status)) {
    uspoof_close(spoof_checker);
    spoof_checker = NULL;
  }
}

static const USpoofChecker *checker_of_process(void) {
  pthread_once(&spoof_checker_once, open_spoof_checker);
  return spoof_checker;
}

typedef struct ustr {
  UChar text[UNITS];
  int32_t len;
} ustr;

static bool from_utf8(const char *s, ustr *out) {
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8(out->text, UNITS, &out->len, s, -1, &status);
  return U_SUCCESS(status) && status != U_STRING_NOT_TERMINATED_WARNING;
}

static bool to_utf8(const ustr *s, char *out, size_t size) {
  UErrorCode status = U_ZERO_ERROR;
  int32_t len = 0;
  u_strToUTF8(out, (int32_t)size, &len, s->text, s->len, &status);
  return U_SUCCESS(status) && status != U_STRING_NOT_TERMINATED_WARNING;
}

/* NFKC, with case folded when asked (NFKC_Casefold), then every kind of space as one plain
 * space, none around. */
static bool fold(const UChar *s, int32_t n, bool casefold, ustr *out) {
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfkc = casefold ? unorm2_getNFKCCasefoldInstance(&status) : unorm2_getNFKCInstance(&status);
  UChar folded[UNITS];
  const int32_t len = U_SUCCESS(status) ? unorm2_normalize(nfkc, s, n, folded, UNITS, &status) : 0;
  if (U_FAILURE(status) || len >= UNITS) return false;
  out->len = 0;
  for (int32_t i = 0; i < len; i++) {
    const bool space = u_isUWhiteSpace(folded[i]);
    if (space && (out->len == 0 || out->text[out->len - 1] == ' ')) continue;
    out->text[out->len++] = space ? ' ' : folded[i];
  }
  while (out->len > 0 && out->text[out->len - 1] == ' ') out->len--;
  out->text[out->len] = 0;
  return true;
}

/* The skeleton of a text, then NFKC_Casefold. */
static bool skeleton_folded(const USpoofChecker *checker, const ustr *in, ustr *out) {
  UChar skeleton[UNITS];
  UErrorCode status = U_ZERO_ERROR;
  const int32_t len = uspoof_getSkeleton(checker, 0, in->text, in->len, skeleton, UNITS, &status);
  return U_SUCCESS(status) && len < UNITS && fold(skeleton, len, true, out);
}

/* Appends a code point. */
static bool append(ustr *s, UChar32 c) {
  if (s->len + 2 >= UNITS) return false;
  if (c >= 0x10000) {
    s->text[s->len++] = (UChar)(0xd800 + ((c - 0x10000) >> 10));
    s->text[s->len++] = (UChar)(0xdc00 + ((c - 0x10000) & 0x3ff));
  } else {
    s->text[s->len++] = (UChar)c;
  }
  s->text[s->len] = 0;
  return true;
}

/* Each capital letter whose skeleton is a capital too, as that capital (a Greek "Κ" or a
 * Cyrillic "М" as the Latin K and M), and every other character as it is. Case folding first
 * would lose these: the small Greek kappa looks like the Latin kra, not like k. A capital whose
 * lookalike is not a capital stays (a capital I, whose skeleton is a small l, is an i to case
 * folding, as people read names regardless of case). */
static bool capitals_as_latin(const USpoofChecker *checker, const ustr *in, ustr *out) {
  out->len = 0;
  out->text[0] = 0;
  for (int32_t i = 0; i < in->len;) {
    UChar32 c = in->text[i];
    int32_t units = 1;
    if ((c & 0xfc00) == 0xd800 && i + 1 < in->len && (in->text[i + 1] & 0xfc00) == 0xdc00) {
      c = ((c - 0xd800) << 10) + ((int32_t)in->text[i + 1] - 0xdc00) + 0x10000;
      units = 2;
    }
    UChar32 as = c;
    if (u_isupper(c)) {
      UChar skeleton[8];
      UErrorCode status = U_ZERO_ERROR;
      const int32_t len = uspoof_getSkeleton(checker, 0, in->text + i, units, skeleton, 8, &status);
      if (U_SUCCESS(status) && len == 1 && u_isupper(skeleton[0])) as = skeleton[0];
    }
    if (!append(out, as)) return false;
    i += units;
  }
  return true;
}

/* The key of n units of text (srv_name_key, in UTF-16): NFKC, capitals
 * as their Latin lookalikes, NFKC_Casefold, the skeleton, and NFKC_Casefold again (skeletons
 * hold capitals: the skeleton of 0 is O). */
static bool key_of(const USpoofChecker *checker, const UChar *s, int32_t n, ustr *out) {
  ustr plain, latin, folded;
  return checker && fold(s, n, false, &plain) && capitals_as_latin(checker, &plain, &latin) &&
         fold(latin.text, latin.len, true, &folded) && skeleton_folded(checker, &folded, out);
}

int srv_name_key(const char *name, char out[SRV_NAME_KEY_SIZE]) {
  ustr text, key;
  return from_utf8(name, &text) && key_of(checker_of_process(), text.text, text.len, &key) &&
                 to_utf8(&key, out, SRV_NAME_KEY_SIZE)
             ? 0
             : -1;
}

static bool same(const ustr *a, const ustr *b) {
  return a->len == b->len && memcmp(a->text, b->text, (size_t)a->len * sizeof *a->text) == 0;
}

/* The key of a reserved word, given in UTF-8. */
static bool word_key(const USpoofChecker *checker, const char *word, ustr *out) {
  ustr text;
  return from_utf8(word, &text) && key_of(checker, text.text, text.len, out);
}

/* How many units of the name (in NFKC) make a prefix whose key is the word's, or -1. The name's
 * own characters after it are then what follows the word ("Computer1": a digit, though the
 * skeleton of 1 is l). */
static int32_t word_prefix(const USpoofChecker *checker, const ustr *folded, const ustr *key, const char *word) {
  ustr want, got;
  if (!word_key(checker, word, &want)) return -1;
  /* A prefix's key begins the whole name's key: most names are done here, without a key for
   * each of their prefixes. */
  if (key->len < want.len || memcmp(key->text, want.text, (size_t)want.len * sizeof *want.text) != 0) return -1;
  for (int32_t i = 1; i <= folded->len; i++) {
    if (i < folded->len && (folded->text[i] & 0xfc00) == 0xdc00) continue; /* not inside a surrogate pair */
    if (key_of(checker, folded->text, i, &got) && same(&got, &want)) return i;
  }
  return -1;
}

/* Whether the key of the name holds the word's key. */
static bool holds_word(const USpoofChecker *checker, const ustr *key, const char *word) {
  ustr want;
  if (!word_key(checker, word, &want) || want.len == 0) return false;
  return u_strstr(key->text, want.text) != NULL;
}

/* Whether what follows a prefix is one or more digits (as the eye reads them), after spaces. */
static bool digits_follow(const USpoofChecker *checker, const ustr *folded, int32_t at) {
  while (at < folded->len && folded->text[at] == ' ') at++;
  ustr rest, digits;
  if (at == folded->len || !key_of(checker, folded->text + at, folded->len - at, &rest) ||
      !word_key(checker, "0123456789", &digits))
    return false;
  for (int32_t i = 0; i < rest.len; i++)
    if (!u_strchr(digits.text, rest.text[i])) return false;
  return true;
}

/* The character that starts at unit i. */
static UChar32 code_point_at(const ustr *s, int32_t i) {
  const int32_t unit = s->text[i];
  if ((unit & 0xfc00) == 0xd800 && i + 1 < s->len && (s->text[i + 1] & 0xfc00) == 0xdc00) /* a surrogate pair */
    return ((unit - 0xd800) << 10) + ((int32_t)s->text[i + 1] - 0xdc00) + 0x10000;
  return unit;
}

/* srv_name_reserved with a spoof checker. */
static const char *reserved(const USpoofChecker *checker, const char *name) {
  ustr text, folded, key; /* folded: in NFKC, case kept (what key_of takes) */
  if (!from_utf8(name, &text) || !fold(text.text, text.len, false, &folded) || !key_of(checker, text.text, text.len, &key))
    return NULL; /* the protocol has refused what is not UTF-8 already */
  const int32_t computer = word_prefix(checker, &folded, &key, "computer");
  if (computer >= 0) {
    if (computer == folded.len || !u_isalpha(code_point_at(&folded, computer))) return "kept for computer players";
  }
  if (holds_word(checker, &key, "(computer)") || word_prefix(checker, &folded, &key, "コンピュータ") >= 0)
    return "kept for computer players";
  const int32_t player = word_prefix(checker, &folded, &key, "player");
  if (player >= 0 && digits_follow(checker, &folded, player)) return "kept for guests";
  static const char *const operators[] = {"admin", "administrator", "moderator"};
  for (size_t i = 0; i < sizeof operators / sizeof *operators; i++) {
    ustr word;
    if (word_key(checker, operators[i], &word) && same(&word, &key)) return "kept for the server's operators";
  }
  return NULL;
}

const char *srv_name_reserved(const char *name) {
  return reserved(checker_of_process(), name);
}

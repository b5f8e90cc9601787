/* Passwords too common to protect an account (docs/SERVER.md "Claimed names"): the ones of 8
 * bytes or more (shorter ones are refused anyway) that head the public lists of leaked
 * passwords (keyboard runs, "password" and its spellings, names of teams and shows), a few of
 * this game's own, those of Debian john-data's password list (password_list.inc, made at build
 * time by scripts/password-list.sh), and any password that is one character repeated or a run
 * of consecutive characters ("23456789", "abcdefghij"). Compared without regard to ASCII case. */
#include <stdlib.h>
#include <string.h>

#include "secret.h"

/* Sorted by strcmp, lowercase: bsearch finds a password here. */
static const char *const common[] = {
    "00000000", "000000000", "0000000000", "0987654321", "11111111", "111111111", "1111111111", "11111111a",
    "11223344", "112233445566", "12121212", "123123123", "123321123", "12341234", "12344321", "12345678",
    "123456780", "123456789", "1234567890", "12345678910", "123456789a", "12345678a", "12345qwert",
    "1234abcd", "1234qwer", "123654789", "123qweasd", "123qweasdzxc", "13579246", "147258369", "159357456",
    "1password", "1q2w3e4r", "1q2w3e4r5t", "1qa2ws3ed", "1qaz2wsx", "1qazxsw2", "22222222", "24682468",
    "33333333", "43214321", "44444444", "55555555", "56785678", "66666666", "741852963", "77777777",
    "789456123", "789456123a", "87654321", "88888888", "987654321", "9876543210", "99999999", "a12345678",
    "a123456789", "a1b2c3d4", "aa123456", "aaaaaaaa", "abc12345", "abcd1234", "abcdef123", "abcdefgh",
    "admin123", "administrator", "arsenal1", "asdf1234", "asdfasdf", "asdfghjkl", "autumn2024", "baseball",
    "baseball1", "basketball", "batman123", "changeme", "changeme1", "charlie1", "chelsea1", "computer",
    "contraseña", "daisuki1", "demo1234", "doraemon", "dragon12", "dropbox1", "facebook", "ferrari1",
    "football", "football1", "freedom1", "fuckoff1", "fuckyou1", "goita123", "goitagoita", "goodluck",
    "google123", "guest123", "hello123", "hello1234", "hellokitty", "helloworld", "iloveyou", "iloveyou!",
    "iloveyou1", "iloveyou2", "internet", "jennifer", "jessica1", "jordan23", "killer12", "letmein!",
    "letmein1", "letmein123", "linkedin", "liverpool", "love1234", "lovelove", "loveyou1", "manchester",
    "master12", "matrix12", "mercedes", "michael1", "michelle", "minecraft", "monkey12", "motdepasse",
    "naruto123", "newyork1", "nopassword", "p@ssw0rd", "p@ssword", "pa55word", "passw0rd", "password",
    "password!", "password1", "password1!", "password12", "password123", "password1234", "passwort",
    "pokemon1", "princess", "princess1", "q1w2e3r4", "q1w2e3r4t5", "qazwsxedc", "qwe123qwe", "qweasdzxc",
    "qwer1234", "qwerty!!", "qwerty12", "qwerty123", "qwertyui", "qwertyuiop", "sakura123", "samsung1",
    "secret12", "security", "shadow12", "spring2024", "spring2025", "starwars", "summer123", "summer2024",
    "summer2025", "sunshine", "sunshine1", "superman", "test1234", "test12345", "testtest", "trustno1",
    "user1234", "welcome!", "welcome1", "welcome123", "whatever", "winter2024", "winter2025", "zaq12wsx",
    "zaq1zaq1", "zxcvbnm1", "zxcvbnm123",
};

/* john-data's list, cut and sorted the same way (lowercase, strcmp's order). */
static const char *const leaked[] = {
#include "password_list.inc"
};

static int compare(const void *key, const void *item) { return strcmp(key, *(const char *const *)item); }

/* Whether every character is the one before it plus step (the same, one more, one less). */
static bool run_of(const char *s, int step) {
  for (const char *p = s + 1; *p; p++)
    if (*p - p[-1] != step) return false;
  return true;
}

bool srv_password_common(const char *password) {
  char lower[SRV_PASSWORD_MAX + 1];
  size_t n = 0;
  for (; password[n] && n < SRV_PASSWORD_MAX; n++)
    lower[n] = password[n] >= 'A' && password[n] <= 'Z' ? (char)(password[n] - 'A' + 'a') : password[n];
  lower[n] = '\0';
  const bool found = n > 0 && (run_of(lower, 0) || run_of(lower, 1) || run_of(lower, -1) ||
                               bsearch(lower, common, sizeof common / sizeof *common, sizeof *common, compare) ||
                               bsearch(lower, leaked, sizeof leaked / sizeof *leaked, sizeof *leaked, compare));
  srv_secret_wipe(lower, sizeof lower);
  return found;
}

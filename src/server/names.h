/* Names as people see them (docs/SERVER.md "Claimed names"), with ICU: the key two names are
 * told apart by, and the names kept for computers, guests and the server's operators. */
#ifndef GOITA_SERVER_NAMES_H
#define GOITA_SERVER_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Room for a name's key: a name's 39 bytes may grow under NFKC and the skeleton. */
#define SRV_NAME_KEY_SIZE 256

/* The key of a name, which the account it claims is stored under: the name in NFKC, its
 * capitals of other scripts as the Latin capitals they look like (Greek "Κ" as K), with case
 * folded (NFKC_Casefold), turned into its confusable skeleton (Unicode UTS #39: each character
 * as the one it is mistaken for, Greek "ο" as "o", "rn" for "m") and folded again, with the
 * spaces around it dropped and runs of spaces squeezed to one. Two names with
 * the same key cannot be told apart on a screen, so they are one account. Writes it to out (of
 * SRV_NAME_KEY_SIZE bytes) and returns 0, or -1 when the name is not UTF-8 or its key does not
 * fit. */
int srv_name_key(const char *name, char out[SRV_NAME_KEY_SIZE]);

/* Why a person may not take a name, or NULL when it is free of reserved words: "kept for
 * computer players" ("Computer" followed by anything but a letter, anything with
 * "(computer)", the Japanese "コンピュータ"), "kept for guests" ("Player" and digits, the
 * names guests are given), "kept for the server's operators" ("admin", "administrator",
 * "moderator"), each compared by key, so that case, width and lookalike letters do not get
 * around it. */
const char *srv_name_reserved(const char *name);

#endif

/* The server's secrets kept as hashes (libsodium): player and seat tokens are stored and
 * compared only as BLAKE2b hashes, passwords only as argon2id strings, so a copy of the
 * database lets nobody act for a player. */
#ifndef GOITA_SERVER_SECRET_H
#define GOITA_SERVER_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

/* The shortest and longest password a player may choose, in bytes. */
#define SRV_PASSWORD_MIN 8
#define SRV_PASSWORD_MAX 128

/* Writes the hash of a token (its BLAKE2b-256, in lowercase hex) to out. */
void srv_token_hash(const char *token, char out[SRV_TOKEN_HASH_SIZE]);

/* Hashes a password with argon2id at libsodium's interactive limits into out (a string that
 * holds its own salt and limits). Returns 0, or -1 when out of memory. */
int srv_password_hash(const char *password, char out[SRV_PASSWORD_HASH_SIZE]);

/* Whether the password matches a hash made by srv_password_hash. */
bool srv_password_check(const char *hash, const char *password);

/* Whether a password is too common to protect an account: on the short list of the most used
 * ones, or one character repeated, or a run ("12345678", "abcdefgh"); ASCII case aside
 * (password_common.c). */
bool srv_password_common(const char *password);

/* Overwrites a secret in memory (a password once it has been used) so the compiler keeps it. */
void srv_secret_wipe(void *buf, size_t len);

#endif

/* Tokens and passwords hashed with libsodium (secret.h). */
#include <sodium.h>
#include <string.h>

#include "hub.h"
#include "secret.h"

_Static_assert(SRV_PASSWORD_HASH_SIZE == crypto_pwhash_STRBYTES, "an argon2id string fits its column");
_Static_assert(SRV_TOKEN_HASH_SIZE == 2 * crypto_generichash_BYTES + 1, "a token hash is 64 hex digits");

void srv_token_hash(const char *token, char out[SRV_TOKEN_HASH_SIZE]) {
  unsigned char hash[crypto_generichash_BYTES];
  const int ready = sodium_init(); /* idempotent; BLAKE2b needs nothing it could fail to set up */
  (void)ready;
  crypto_generichash(hash, sizeof hash, (const unsigned char *)token, strlen(token), NULL, 0);
  sodium_bin2hex(out, SRV_TOKEN_HASH_SIZE, hash, sizeof hash);
}

int srv_password_hash(const char *password, char out[SRV_PASSWORD_HASH_SIZE]) {
  if (sodium_init() < 0) return -1;
  return crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                           crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0
             ? 0
             : -1;
}

bool srv_password_check(const char *hash, const char *password) {
  if (sodium_init() < 0) return false;
  return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

void srv_secret_wipe(void *buf, size_t len) { sodium_memzero(buf, len); }

void srv_password_work(srv_password_job *job, srv_password_answer *answer) {
  memset(answer, 0, sizeof *answer);
  answer->client = job->client;
  answer->serial = job->serial;
  answer->kind = job->kind;
  if (job->kind == SRV_PASSWORD_HASH)
    answer->ok = srv_password_hash(job->password, answer->hash) == 0;
  else
    answer->ok = srv_password_check(job->hash, job->password);
  srv_secret_wipe(job->password, sizeof job->password);
}

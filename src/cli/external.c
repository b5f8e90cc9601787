/* A player program behind the line protocol (docs/PROTOCOL.md), driven from our side: the
 * match runner starts it, tells it the rules, and asks for moves with the seat's view only. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Sends one line; false when the program has gone. */
static bool send_line(cli_engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool send_line(cli_engine *e, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0 || n >= (int)sizeof line - 1) return false;
  line[n++] = '\n';
  for (int done = 0; done < n;) {
    const ssize_t w = write(e->to, line + done, (size_t)(n - done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += (int)w;
  }
  return true;
}

/* Reads one line (without its newline) within the time limit; false on end, error or time. */
static bool read_line(cli_engine *e, char *out, size_t size, double deadline) {
  for (;;) {
    char *nl = memchr(e->buf, '\n', e->len);
    if (nl) {
      size_t n = (size_t)(nl - e->buf);
      const size_t copy = n < size - 1 ? n : size - 1;
      memcpy(out, e->buf, copy);
      out[copy] = '\0';
      if (copy > 0 && out[copy - 1] == '\r') out[copy - 1] = '\0';
      memmove(e->buf, nl + 1, e->len - n - 1);
      e->len -= n + 1;
      return true;
    }
    if (e->len == sizeof e->buf) e->len = 0; /* an overlong line: drop it */
    const double left = deadline - now_ms();
    if (left <= 0) {
      snprintf(e->why, sizeof e->why, "no answer within %.0f s", e->timeout_ms / 1000);
      return false;
    }
    struct pollfd p = {e->from, POLLIN, 0};
    const int r = poll(&p, 1, (int)(left < 1 ? 1 : left));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    const ssize_t got = read(e->from, e->buf + e->len, sizeof e->buf - e->len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      snprintf(e->why, sizeof e->why, "the program closed its output (did it exit?)");
      return false;
    }
    e->len += (size_t)got;
  }
}

bool cli_engine_start(cli_engine *e, const char *command, const goita_rules *rules, double timeout_ms) {
  memset(e, 0, sizeof *e);
  e->pid = -1;
  e->to = e->from = -1;
  e->timeout_ms = timeout_ms;
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) {
    snprintf(e->why, sizeof e->why, "cannot make pipes: %s", strerror(errno));
    return false;
  }
  /* programs started for other threads must not inherit these ends */
  for (int i = 0; i < 2; i++) {
    fcntl(in[i], F_SETFD, FD_CLOEXEC);
    fcntl(out[i], F_SETFD, FD_CLOEXEC);
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addclose(&fa, in[1]);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  /* Its own process group, so that stopping it stops whatever the shell started as well. */
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  char *argv[] = {"sh", "-c", (char *)command, NULL};
  pid_t pid;
  const int st = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  e->to = in[1];
  e->from = out[0];
  if (st != 0) {
    snprintf(e->why, sizeof e->why, "cannot start it: %s", strerror(st));
    cli_engine_stop(e);
    return false;
  }
  e->pid = pid;
  /* Handshake, then the rules. */
  char line[1024];
  const double deadline = now_ms() + timeout_ms;
  if (!send_line(e, "goita")) goto gone;
  for (;;) {
    if (!read_line(e, line, sizeof line, deadline)) return false;
    if (strncmp(line, "id name ", 8) == 0) snprintf(e->name, sizeof e->name, "%.*s", (int)sizeof e->name - 1, line + 8);
    if (strncmp(line, "goitaok", 7) == 0) break;
  }
  char text[GOITA_RULES_TEXT_SIZE];
  goita_rules_format(rules, text, sizeof text);
  if (!send_line(e, "rules %s", text) || !send_line(e, "isready")) goto gone;
  for (;;) {
    if (!read_line(e, line, sizeof line, deadline)) return false;
    if (strcmp(line, "readyok") == 0) return true;
    if (strncmp(line, "error", 5) == 0) {
      snprintf(e->why, sizeof e->why, "it refused the rules: %.700s", line);
      return false;
    }
  }
gone:
  snprintf(e->why, sizeof e->why, "the program does not read its input (did it exit?)");
  return false;
}

bool cli_engine_move(cli_engine *e, const goita_view *v, uint64_t seed, goita_move *move) {
  char history[512];
  if (goita_history_format_view(v, history, sizeof history) < 0) {
    snprintf(e->why, sizeof e->why, "the position does not fit a line");
    return false;
  }
  char score[64] = "score";
  for (int s = 0, n = 5; s < goita_rules_sides(&v->rules); s++)
    n += snprintf(score + n, sizeof score - (size_t)n, " %d", v->score[s]);
  if (!send_line(e, "%s", score) || !send_line(e, "position %s", history) ||
      !send_line(e, "go seed %llu", (unsigned long long)seed)) {
    snprintf(e->why, sizeof e->why, "the program does not read its input (did it exit?)");
    return false;
  }
  char line[1024];
  const double deadline = now_ms() + e->timeout_ms;
  for (;;) {
    if (!read_line(e, line, sizeof line, deadline)) return false;
    if (strncmp(line, "error", 5) == 0) {
      snprintf(e->why, sizeof e->why, "after \"position %.300s\" it said: %.300s", history, line);
      return false;
    }
    if (strncmp(line, "bestmove ", 9) != 0) continue; /* info lines and anything else */
    const char *token = line + 9;
    if (goita_move_parse(token, strlen(token), move) != GOITA_OK) {
      snprintf(e->why, sizeof e->why, "after \"position %.300s\" it answered a malformed move: %.100s", history,
               line);
      return false;
    }
    return true;
  }
}

void cli_engine_stop(cli_engine *e) {
  if (e->to >= 0) {
    send_line(e, "quit");
    close(e->to);
  }
  if (e->from >= 0) close(e->from);
  if (e->pid > 0) {
    /* give it a moment to quit, then insist */
    bool reaped = false;
    for (int i = 0; i < 50 && !reaped; i++) {
      reaped = waitpid(e->pid, NULL, WNOHANG) == e->pid;
      struct timespec t = {0, 20 * 1000 * 1000};
      if (!reaped) nanosleep(&t, NULL);
    }
    /* its whole group: a program under "sh -c" and anything it started */
    kill(-e->pid, SIGKILL);
    if (!reaped) waitpid(e->pid, NULL, 0);
  }
  e->to = e->from = -1;
  e->pid = -1;
}

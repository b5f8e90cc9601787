/* goita serve: online play (docs/SERVER.md). Parses the options and runs the server. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "serve.h"

/* Creates each folder of path's parent, like mkdir -p. */
static bool make_parents(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) return false;
    *p = '/';
  }
  return true;
}

/* The web client: beside the sources in a build tree, else where make install put it. */
static const char *default_web_dir(void) {
  static const char *const candidates[] = {GOITA_SOURCE_WEB_DIR, GOITA_INSTALLED_WEB_DIR};
  for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
    char index[4096];
    snprintf(index, sizeof index, "%s/index.html", candidates[i]);
    if (access(index, R_OK) == 0) return candidates[i];
  }
  return GOITA_SOURCE_WEB_DIR;
}

int cmd_serve(int argc, char **argv) {
  srv_serve_options o;
  memset(&o, 0, sizeof o);
  o.host = "127.0.0.1";
  o.port = 8080;
  o.bot_threads = 1;
  o.web_dir = default_web_dir();
  srv_hub_options_default(&o.hub);
  char db[4096];
  const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  if (data && *data)
    snprintf(db, sizeof db, "%s/goita/server.db", data);
  else
    snprintf(db, sizeof db, "%s/.local/share/goita/server.db", home && *home ? home : ".");
  o.db_path = db;
  for (int i = 0; i < argc; i++) {
    const char *v;
    uint64_t n;
    if (strcmp(argv[i], "--port") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--port", v, &n)) return 2;
      if (n < 1 || n > 65535) {
        fprintf(stderr, "goita serve: --port must be from 1 to 65535\n");
        return 2;
      }
      o.port = (int)n;
    } else if (strcmp(argv[i], "--host") == 0) {
      if (!(o.host = cli_option_value(argc, argv, &i))) return 2;
    } else if (strcmp(argv[i], "--db") == 0) {
      if (!(o.db_path = cli_option_value(argc, argv, &i))) return 2;
    } else if (strcmp(argv[i], "--web") == 0) {
      if (!(o.web_dir = cli_option_value(argc, argv, &i))) return 2;
    } else if (strcmp(argv[i], "--bot-threads") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--bot-threads", v, &n)) return 2;
      if (n < 1 || n > 16) {
        fprintf(stderr, "goita serve: --bot-threads must be from 1 to 16\n");
        return 2;
      }
      o.bot_threads = (int)n;
    } else if (strcmp(argv[i], "--round-pause") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--round-pause", v, &n)) return 2;
      if (n > 60000) {
        fprintf(stderr, "goita serve: --round-pause is in milliseconds, at most 60000\n");
        return 2;
      }
      o.hub.round_pause_ms = (int)n;
    } else {
      fprintf(stderr, "goita serve: unknown option \"%s\"\n", argv[i]);
      return 2;
    }
  }
  if (!make_parents(o.db_path)) {
    fprintf(stderr, "goita serve: cannot create the folder of %s: %s\n", o.db_path, strerror(errno));
    return 1;
  }
  char err[512];
  if (srv_serve(&o, err, sizeof err) != 0) {
    fprintf(stderr, "goita serve: %s\n", err);
    return 1;
  }
  return 0;
}

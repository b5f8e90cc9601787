/* goita serve: online play (docs/SERVER.md). Parses the options and runs the server. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus.h"
#include "cli.h"
#include "serve.h"
#include "store.h"

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

/* Reads an --allow-origin value into the list of allowed origins: "*" or scheme://host[:port],
 * as browsers write Origin. */
static bool read_origin(const char *text, void *target, char *why, size_t size) {
  srv_net_limits *limits = target;
  const char *authority = strstr(text, "://");
  if (strcmp(text, "*") != 0 && (!authority || authority == text || !authority[3] || strchr(authority + 3, '/'))) {
    snprintf(why, size, "expected an origin as a browser sends it, like https://goita.example.org, or *");
    return false;
  }
  if (limits->nallow_origins == SRV_MAX_ORIGINS) {
    snprintf(why, size, "at most %d origins", SRV_MAX_ORIGINS);
    return false;
  }
  limits->allow_origins[limits->nallow_origins++] = text;
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
  o.bot_threads = 0; /* one per core */
  o.analysis_nodes = 4000000;
  o.web_dir = default_web_dir();
  srv_hub_options_default(&o.hub);
  srv_net_limits_default(&o.limits);
  char db[4096];
  const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  if (data && *data)
    snprintf(db, sizeof db, "%s/goita/server.db", data);
  else
    snprintf(db, sizeof db, "%s/.local/share/goita/server.db", home && *home ? home : ".");
  o.db_path = db;
  uint64_t port = (uint64_t)o.port, bot_threads = (uint64_t)o.bot_threads,
           round_pause = (uint64_t)o.hub.round_pause_ms;
  uint64_t max_connections = (uint64_t)o.limits.max_connections, max_message = o.limits.max_message_bytes,
           rate = (uint64_t)o.limits.rate_per_second, burst = (uint64_t)o.limits.rate_burst,
           max_queued = o.limits.max_queued_bytes;
  uint64_t tables_per_player = (uint64_t)o.hub.max_tables_per_player,
           player_rate = (uint64_t)o.hub.player_rate_per_second, player_burst = (uint64_t)o.hub.player_rate_burst,
           table_expiry = (uint64_t)o.hub.waiting_table_expiry_ms / 1000, seat_grace = (uint64_t)o.hub.seat_grace_ms / 1000,
           chat_burst = (uint64_t)o.hub.chat_burst, chat_interval = (uint64_t)o.hub.chat_interval_ms,
           rematch_wait = (uint64_t)o.hub.rematch_wait_ms / 1000, lease = 10, login_addresses = 4096;
  const cli_option options[] = {
      {"--port", CLI_UINT, "N", &port, "the TCP port to listen on", .lo = 1, .hi = 65535},
      {.name = "--host", .kind = CLI_TEXT, .value = "ADDRESS", .target = &o.host,
       .help = "the address to listen on; 0.0.0.0 for every network"},
      {.name = "--db", .kind = CLI_TEXT, .value = "FILE|URI", .target = &o.db_path,
       .help = "the database of accounts, tables and games: a SQLite file (its folder is made), or a "
               "postgresql://... URI, which several servers may share"},
      {.name = "--web", .kind = CLI_TEXT, .value = "DIR", .target = &o.web_dir,
       .help = "the web client's files: beside the sources in a build tree, else where make install put them"},
      {"--bot-threads", CLI_UINT, "N", &bot_threads,
       "threads that think for the computer players (0: one per core)", .hi = 16},
      {"--analysis-nodes", CLI_UINT, "N", &o.analysis_nodes,
       "the exact solver's nodes for each finished game's analysis, on a thread of its own at low priority "
       "(the players' career statistics; 0: none kept)",
       .hi = 1000000000},
      {"--round-pause", CLI_UINT, "MS", &round_pause, "the pause after a round before the next deal",
       .hi = 60000, .unit = "ms"},
      {"--max-connections", CLI_UINT, "N", &max_connections,
       "connections at once; more are answered HTTP 503 (keep ulimit -n above it)", .lo = 1, .hi = 1000000},
      {"--max-message-bytes", CLI_UINT, "N", &max_message,
       "a bigger WebSocket message closes its connection (close code 1009)", .lo = 4096, .hi = 1u << 20,
       .unit = "bytes"},
      {"--rate-per-second", CLI_UINT, "N", &rate,
       "messages a connection may send a second on average; more are refused, and a flood closes it (1008)",
       .lo = 1, .hi = 100000},
      {"--rate-burst", CLI_UINT, "N", &burst, "messages a connection may send at once", .lo = 1, .hi = 100000},
      {"--max-queued-bytes", CLI_UINT, "N", &max_queued,
       "bytes waiting for a client that does not read; past it the client is closed as too slow (1008)",
       .lo = 16384, .hi = 1u << 30, .unit = "bytes"},
      {.name = "--allow-origin", .kind = CLI_READ, .value = "ORIGIN", .target = &o.limits, .read = read_origin,
       .help = "a web page origin (https://host[:port], or * for any) whose pages may use the WebSocket; "
               "repeat for more; requests without Origin (programs) are always let in",
       .fallback = "the server's own origin, as the Host header names it"},
      {.name = "--tls-cert", .kind = CLI_TEXT, .value = "FILE", .target = &o.tls_cert,
       .help = "serve https and wss with this PEM certificate (chain); needs --tls-key", .fallback = "plain http"},
      {.name = "--tls-key", .kind = CLI_TEXT, .value = "FILE", .target = &o.tls_key,
       .help = "the certificate's PEM private key"},
      {"--max-tables-per-player", CLI_UINT, "N", &tables_per_player,
       "open tables one player may have created (0: no limit)", .hi = 1000},
      {"--player-rate-per-second", CLI_UINT, "N", &player_rate,
       "requests a second a player may make that cost (create, sit, bot, start, ...; 0: no limit)", .hi = 1000},
      {"--player-rate-burst", CLI_UINT, "N", &player_burst, "how many such requests may come at once", .lo = 1,
       .hi = 10000},
      {"--waiting-table-expiry", CLI_UINT, "S", &table_expiry,
       "a waiting table with no person seated is removed after this", .lo = 1, .hi = 86400, .unit = "s"},
      {"--seat-grace", CLI_UINT, "S", &seat_grace,
       "a gone person's waiting seat is freed, or their game seat stood in by a computer, after this", .lo = 1,
       .hi = 86400, .unit = "s"},
      {"--chat-burst", CLI_UINT, "N", &chat_burst, "chat lines a connection may send at once", .lo = 1, .hi = 1000},
      {"--chat-interval", CLI_UINT, "MS", &chat_interval, "then one chat line every this long", .lo = 1,
       .hi = 3600000, .unit = "ms"},
      {"--rematch-wait", CLI_UINT, "S", &rematch_wait,
       "a rematch starts after this with those who asked, computers for the others", .lo = 1, .hi = 3600,
       .unit = "s"},
      {"--login-addresses", CLI_UINT, "N", &login_addresses,
       "client addresses whose wrong passwords are remembered at once (a fixed table)", .lo = 16, .hi = 65536},
      {.name = "--forwarded-for", .kind = CLI_FLAG, .target = &o.forwarded_for,
       .help = "behind a proxy: a client's address is the last one in its X-Forwarded-For header (give it only "
               "when the proxy in front sets that header)"},
      {.name = "--node", .kind = CLI_TEXT, .value = "NAME", .target = &o.node,
       .help = "this server's name among several sharing one PostgreSQL database (each its own name)",
       .fallback = "goita"},
      {"--lease", CLI_UINT, "S", &lease,
       "with PostgreSQL: another server takes this one's tables over when it has not renewed its lease "
       "for this long",
       .lo = 3, .hi = 600, .unit = "s"},
      {.name = "--bus", .kind = CLI_TEXT, .value = "nats://HOST:PORT", .target = &o.bus,
       .help = "with PostgreSQL: the NATS server the servers sharing the database talk through (each "
               "server's lobby shows every table, and its players reach the tables of the others)",
       .fallback = "none: a server shows and serves only its own tables"},
  };
  const cli_command c = {
      .program = "goita",
      .name = "serve",
      .about = "Online play (docs/SERVER.md): a game server with its web client at http://HOST:PORT/. People\n"
               "sit at tables, computer players fill the empty seats, and every game is stored, so that a\n"
               "restarted server goes on where it stopped. SIGINT or SIGTERM stops it cleanly.\n",
      .examples = "goita serve\n"
                  "goita serve --host 0.0.0.0 --port 8000 --db /var/lib/goita/server.db\n"
                  "goita serve --host 0.0.0.0 --port 8443 --tls-cert cert.pem --tls-key key.pem",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  o.port = (int)port;
  o.bot_threads = (int)bot_threads;
  o.hub.round_pause_ms = (int)round_pause;
  o.limits.max_connections = (int)max_connections;
  o.limits.max_message_bytes = (size_t)max_message;
  o.limits.rate_per_second = (int)rate;
  o.limits.rate_burst = (int)burst;
  o.limits.max_queued_bytes = (size_t)max_queued;
  if (!o.tls_cert != !o.tls_key)
    return cli_usage_error(&c, "--tls-cert and --tls-key go together: a certificate needs its key");
  o.hub.max_tables_per_player = (int)tables_per_player;
  o.hub.player_rate_per_second = (int)player_rate;
  o.hub.player_rate_burst = (int)player_burst;
  o.hub.waiting_table_expiry_ms = (int)table_expiry * 1000;
  o.hub.seat_grace_ms = (int)seat_grace * 1000;
  o.hub.chat_burst = (int)chat_burst;
  o.hub.chat_interval_ms = (int)chat_interval;
  o.hub.rematch_wait_ms = (int)rematch_wait * 1000;
  o.lease_ms = (int)lease * 1000;
  o.hub.login_addresses = (int)login_addresses;
  if (o.bus && !srv_store_is_postgresql(o.db_path))
    return cli_usage_error(&c, "--bus needs a PostgreSQL database (--db postgresql://...): servers sharing one "
                               "talk over the bus, and a SQLite file serves one server");
  if (o.bus && !srv_bus_url_valid(o.bus))
    return cli_usage_error(&c, "--bus \"%s\": expected nats://HOST:PORT", o.bus);
  if (!srv_store_is_postgresql(o.db_path) && !make_parents(o.db_path)) {
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

/* The WebSocket upgrade checks of goita serve (net_handshake.h). */
#include "net_handshake.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* Whether the Sec-WebSocket-Protocol list (names separated by commas) names "goita". */
static bool asks_for_goita(const char *list) {
  while (*list) {
    list += strspn(list, " \t,");
    const size_t len = strcspn(list, " \t,");
    if (len == 5 && strncmp(list, "goita", 5) == 0) return true;
    list += len;
  }
  return false;
}

/* Whether a browser page from origin may open the WebSocket: an origin of the allow-list
 * ("*" allows all), or without a list the page's own server: the origin's host and port
 * (after "scheme://") are those of the Host header. A request without Origin does not come
 * from a browser page and is allowed: the check guards people's browsers against other sites,
 * and any other program can send whatever Origin it likes. */
static bool origin_allowed(const char *origin, const char *host, const srv_net_limits *limits) {
  if (limits->nallow_origins > 0) {
    for (int i = 0; i < limits->nallow_origins; i++)
      if (strcmp(limits->allow_origins[i], "*") == 0 || strcasecmp(limits->allow_origins[i], origin) == 0)
        return true;
    return false;
  }
  const char *authority = strstr(origin, "://");
  return authority && *host && strcasecmp(authority + 3, host) == 0;
}

unsigned srv_upgrade_refusal(struct lws *wsi, const srv_net_limits *limits, const char **why) {
  char protocols[256] = "", origin[256] = "", host[256] = "";
  if (lws_hdr_copy(wsi, protocols, sizeof protocols, WSI_TOKEN_PROTOCOL) < 0 || !asks_for_goita(protocols)) {
    *why = "this server speaks only the WebSocket protocol \"goita\" (Sec-WebSocket-Protocol: goita)\n";
    return HTTP_STATUS_BAD_REQUEST;
  }
  if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) == 0) return 0;
  if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
      lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) < 0 || !origin_allowed(origin, host, limits)) {
    *why = "pages from this origin may not open the game's WebSocket (see goita serve --allow-origin)\n";
    return HTTP_STATUS_FORBIDDEN;
  }
  return 0;
}

int srv_http_reply(struct lws *wsi, unsigned status, const char *text) {
  unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
  const size_t len = strlen(text);
  if (lws_add_http_common_headers(wsi, status, "text/plain; charset=utf-8", (lws_filepos_t)len, &p, end) ||
      lws_finalize_write_http_header(wsi, start, &p, end))
    return -1;
  if (len > sizeof buf - LWS_PRE) return -1;
  memcpy(start, text, len);
  return lws_write(wsi, start, len, LWS_WRITE_HTTP_FINAL) == (int)len ? 0 : -1;
}

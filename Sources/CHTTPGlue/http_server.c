#include "CHTTPGlue.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct stamp_http_server {
  struct MHD_Daemon *daemon;
  stamp_http_handler handler;
  void *context;
  size_t max_body;
};

struct stamp_http_reply {
  struct MHD_Response *response;
  unsigned status;
};

// A request's body as it arrives; owned by libmicrohttpd's per-request slot, freed when the request completes.
struct body {
  uint8_t *data;
  size_t length;
  int too_large;
};

static void completed(void *cls, struct MHD_Connection *connection, void **slot,
                      enum MHD_RequestTerminationCode code) {
  (void)cls;
  (void)connection;
  (void)code;
  struct body *body = *slot;
  if (body != NULL) {
    free(body->data);
    free(body);
    *slot = NULL;
  }
}

// Gathers the body (each chunk is libmicrohttpd's until the call returns, so it is copied), then calls the handler.
static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **slot) {
  (void)version;
  struct stamp_http_server *server = cls;
  struct body *body = *slot;
  if (body == NULL) {
    body = calloc(1, sizeof *body);
    if (body == NULL) return MHD_NO;
    *slot = body;
    return MHD_YES;
  }
  if (*upload_data_size > 0) {
    size_t chunk = *upload_data_size;
    *upload_data_size = 0;
    if (body->too_large) return MHD_YES;
    if (chunk > server->max_body - body->length) {
      // Past the limit: nothing of it is kept, and the rest is read and dropped.
      free(body->data);
      body->data = NULL;
      body->length = 0;
      body->too_large = 1;
      return MHD_YES;
    }
    uint8_t *grown = realloc(body->data, body->length + chunk);
    if (grown == NULL) return MHD_NO;
    memcpy(grown + body->length, upload_data, chunk);
    body->data = grown;
    body->length += chunk;
    return MHD_YES;
  }
  stamp_http_request request = {
      .method = method,
      .url = url,
      .host = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST),
      .origin = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Origin"),
      .content_type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE),
      .body = body->data,
      .body_length = body->length,
      .body_too_large = body->too_large,
  };
  struct stamp_http_reply reply = {.response = NULL, .status = 500};
  server->handler(server->context, &request, &reply);
  if (reply.response == NULL) {
    static const char failed[] = "internal error\n";
    reply.response = MHD_create_response_from_buffer(sizeof failed - 1, (void *)failed, MHD_RESPMEM_PERSISTENT);
    if (reply.response == NULL) return MHD_NO;
    reply.status = 500;
  }
  enum MHD_Result result = MHD_queue_response(connection, reply.status, reply.response);
  MHD_destroy_response(reply.response);
  return result;
}

int stamp_http_respond(stamp_http_reply *reply, unsigned status, const char *content_type, const void *body,
                       size_t length, const char *extra_headers) {
  if (reply->response != NULL) return -1;
  struct MHD_Response *response =
      MHD_create_response_from_buffer(length, (void *)(length > 0 ? body : ""), MHD_RESPMEM_MUST_COPY);
  if (response == NULL) return -1;
  int ok = MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type) == MHD_YES &&
           MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store") == MHD_YES &&
           MHD_add_response_header(response, "X-Content-Type-Options", "nosniff") == MHD_YES &&
           MHD_add_response_header(response, "Referrer-Policy", "no-referrer") == MHD_YES &&
           MHD_add_response_header(response, "X-Frame-Options", "DENY") == MHD_YES;
  if (ok && extra_headers != NULL) {
    char *lines = strdup(extra_headers);
    ok = lines != NULL;
    char *save = NULL;
    for (char *line = ok ? strtok_r(lines, "\n", &save) : NULL; ok && line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
      char *colon = strchr(line, ':');
      if (colon == NULL) continue;
      *colon = '\0';
      const char *value = colon + 1;
      while (*value == ' ') value++;
      ok = MHD_add_response_header(response, line, value) == MHD_YES;
    }
    free(lines);
  }
  if (!ok) {
    MHD_destroy_response(response);
    return -1;
  }
  reply->response = response;
  reply->status = status;
  return 0;
}

stamp_http_server *stamp_http_start(const char *address, uint16_t port, unsigned max_connections,
                                    unsigned timeout_seconds, size_t max_body, stamp_http_handler handler,
                                    void *context, char *error, size_t error_size) {
  struct sockaddr_storage storage;
  memset(&storage, 0, sizeof storage);
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
  struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
  if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
  } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    flags |= MHD_USE_IPv6;
  } else {
    snprintf(error, error_size, "'%s' is not an IPv4 or IPv6 address", address);
    return NULL;
  }
  stamp_http_server *server = calloc(1, sizeof *server);
  if (server == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  server->handler = handler;
  server->context = context;
  server->max_body = max_body;
  server->daemon = MHD_start_daemon(
      flags, port, NULL, NULL, access_handler, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&storage,
      MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)4, MHD_OPTION_CONNECTION_LIMIT, max_connections,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)16, MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024), MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
      MHD_OPTION_END);
  if (server->daemon == NULL) {
    snprintf(error, error_size, "cannot listen on %s port %u (in use, or not an address of this machine)", address,
             (unsigned)port);
    free(server);
    return NULL;
  }
  return server;
}

uint16_t stamp_http_port(const stamp_http_server *server) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

void stamp_http_stop(stamp_http_server *server) {
  if (server == NULL) return;
  MHD_stop_daemon(server->daemon);
  free(server);
}

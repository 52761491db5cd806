#include "CHTTPGlue.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

// One open connection, as the watchdog sees it. The list is the server's, under its lock, oldest first; an entry
// lives from libmicrohttpd's STARTED notice to its CLOSED one, which comes before the socket is closed, so a
// descriptor in the list is always the connection's own.
struct peer {
  struct peer *prev, *next;
  int fd;
  // CLOCK_MONOTONIC seconds by which the connection's next request must be in whole; 0 while one is answered.
  double deadline;
  int proven;
  // Shut down already (libmicrohttpd then closes it, and CLOSED takes it off the list).
  int cut;
};

struct stamp_http_server {
  struct MHD_Daemon *daemon;
  stamp_http_handler handler;
  void *context;
  stamp_http_limits limits;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  struct peer *first, *last;
  // Connections not cut, by kind.
  unsigned unproven, proven;
  int stopping;
  pthread_t watchdog;
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

static double monotonic_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

// Closes the connection's socket both ways, whatever its client does: libmicrohttpd's thread sees the end at once
// and closes the connection. Called with the lock held.
static void cut(struct stamp_http_server *server, struct peer *peer) {
  if (peer->cut) return;
  peer->cut = 1;
  if (peer->proven) {
    server->proven--;
  } else {
    server->unproven--;
  }
  shutdown(peer->fd, SHUT_RDWR);
}

static struct peer *peer_of(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
}

// Sets the connection's deadline: `seconds` from now, or none (0) while its request is answered.
static void set_deadline(struct stamp_http_server *server, struct peer *peer, double seconds) {
  if (peer == NULL) return;
  pthread_mutex_lock(&server->lock);
  peer->deadline = seconds > 0 ? monotonic_now() + seconds : 0;
  pthread_mutex_unlock(&server->lock);
}

// Refuses (closes at once) a connection when every place is taken, rather than leaving it in the listen queue.
static enum MHD_Result accept_policy(void *cls, const struct sockaddr *address, socklen_t length) {
  (void)address;
  (void)length;
  struct stamp_http_server *server = cls;
  pthread_mutex_lock(&server->lock);
  int full = server->stopping || (server->proven >= server->limits.proven_connections &&
                                  server->unproven >= server->limits.unproven_connections);
  pthread_mutex_unlock(&server->lock);
  return full ? MHD_NO : MHD_YES;
}

static void notify_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
  struct stamp_http_server *server = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct peer *peer = info == NULL ? NULL : calloc(1, sizeof *peer);
    *socket_context = peer;
    if (peer == NULL) return;
    peer->fd = info->connect_fd;
    pthread_mutex_lock(&server->lock);
    peer->deadline = monotonic_now() + server->limits.receive_seconds;
    peer->prev = server->last;
    if (server->last != NULL) {
      server->last->next = peer;
    } else {
      server->first = peer;
    }
    server->last = peer;
    server->unproven++;
    if (server->stopping) {
      cut(server, peer);
    } else if (server->unproven > server->limits.unproven_connections) {
      for (struct peer *old = server->first; old != NULL; old = old->next) {
        if (!old->cut && !old->proven) {
          cut(server, old);
          break;
        }
      }
    }
    pthread_mutex_unlock(&server->lock);
    return;
  }
  struct peer *peer = *socket_context;
  if (peer == NULL) return;
  pthread_mutex_lock(&server->lock);
  if (!peer->cut) {
    if (peer->proven) {
      server->proven--;
    } else {
      server->unproven--;
    }
  }
  if (peer->prev != NULL) {
    peer->prev->next = peer->next;
  } else {
    server->first = peer->next;
  }
  if (peer->next != NULL) {
    peer->next->prev = peer->prev;
  } else {
    server->last = peer->prev;
  }
  pthread_mutex_unlock(&server->lock);
  free(peer);
  *socket_context = NULL;
}

// Cuts every connection past its deadline, five times a second, until the server stops.
static void *watch(void *cls) {
  struct stamp_http_server *server = cls;
  pthread_mutex_lock(&server->lock);
  while (!server->stopping) {
    double now = monotonic_now();
    for (struct peer *peer = server->first; peer != NULL; peer = peer->next) {
      if (!peer->cut && peer->deadline > 0 && now > peer->deadline) cut(server, peer);
    }
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += 200 * 1000 * 1000;
    if (until.tv_nsec >= 1000 * 1000 * 1000) {
      until.tv_sec += 1;
      until.tv_nsec -= 1000 * 1000 * 1000;
    }
    pthread_cond_timedwait(&server->wake, &server->lock, &until);
  }
  pthread_mutex_unlock(&server->lock);
  return NULL;
}

static void completed(void *cls, struct MHD_Connection *connection, void **slot,
                      enum MHD_RequestTerminationCode code) {
  (void)code;
  struct stamp_http_server *server = cls;
  struct body *body = *slot;
  if (body != NULL) {
    free(body->data);
    free(body);
    *slot = NULL;
  }
  // The next request on this connection has its own time to arrive.
  set_deadline(server, peer_of(connection), server->limits.receive_seconds);
}

static enum MHD_Result queue(struct MHD_Connection *connection, struct stamp_http_reply *reply) {
  if (reply->response == NULL) {
    static const char failed[] = "internal error\n";
    reply->response = MHD_create_response_from_buffer(sizeof failed - 1, (void *)failed, MHD_RESPMEM_PERSISTENT);
    if (reply->response == NULL) return MHD_NO;
    reply->status = 500;
  }
  enum MHD_Result result = MHD_queue_response(connection, reply->status, reply->response);
  MHD_destroy_response(reply->response);
  return result;
}

// The handler's first call comes with the headers, before any of the body is read and before libmicrohttpd sends
// `100 Continue`, so that a request without the credentials is refused having sent nothing more; then the body is
// gathered (each chunk is libmicrohttpd's until the call returns, so it is copied) and the handler called again.
static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **slot) {
  (void)version;
  struct stamp_http_server *server = cls;
  struct body *body = *slot;
  stamp_http_request request = {
      .method = method,
      .url = url,
      .host = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST),
      .origin = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Origin"),
      .content_type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE),
  };
  if (body == NULL) {
    request.headers_only = 1;
    struct stamp_http_reply reply = {.response = NULL, .status = 500};
    server->handler(server->context, &request, &reply);
    if (reply.response != NULL) return queue(connection, &reply);
    body = calloc(1, sizeof *body);
    if (body == NULL) return MHD_NO;
    *slot = body;
    struct peer *peer = peer_of(connection);
    if (peer != NULL) {
      pthread_mutex_lock(&server->lock);
      if (!peer->cut && !peer->proven) {
        peer->proven = 1;
        server->unproven--;
        server->proven++;
      }
      // The body has its own time to arrive, counted from the headers.
      peer->deadline = monotonic_now() + server->limits.receive_seconds;
      pthread_mutex_unlock(&server->lock);
    }
    return MHD_YES;
  }
  if (*upload_data_size > 0) {
    size_t chunk = *upload_data_size;
    *upload_data_size = 0;
    if (body->too_large) return MHD_YES;
    if (chunk > server->limits.max_body - body->length) {
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
  set_deadline(server, peer_of(connection), 0);
  request.body = body->data;
  request.body_length = body->length;
  request.body_too_large = body->too_large;
  struct stamp_http_reply reply = {.response = NULL, .status = 500};
  server->handler(server->context, &request, &reply);
  return queue(connection, &reply);
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

stamp_http_server *stamp_http_start(const char *address, uint16_t port, const stamp_http_limits *limits,
                                    stamp_http_handler handler, void *context, char *error, size_t error_size) {
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
    // IPV6_V6ONLY off: `::` answers IPv4 clients too (as ::ffff:a.b.c.d), as the address promises.
    flags |= MHD_USE_DUAL_STACK;
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
  server->limits = *limits;
  pthread_condattr_t clock;
  pthread_condattr_init(&clock);
  pthread_condattr_setclock(&clock, CLOCK_MONOTONIC);
  pthread_cond_init(&server->wake, &clock);
  pthread_condattr_destroy(&clock);
  pthread_mutex_init(&server->lock, NULL);
  // Room in libmicrohttpd for every connection this server keeps, twice over (connections cut but not yet closed),
  // so that its own limit, which leaves new connections waiting in the listen queue, is never reached.
  unsigned total = 2 * (limits->unproven_connections + limits->proven_connections) + 16;
  server->daemon = MHD_start_daemon(
      flags, port, accept_policy, server, access_handler, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&storage,
      MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)4, MHD_OPTION_CONNECTION_LIMIT, total,
      MHD_OPTION_CONNECTION_TIMEOUT, limits->idle_seconds, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
      MHD_OPTION_NOTIFY_COMPLETED, completed, server, MHD_OPTION_NOTIFY_CONNECTION, notify_connection, server,
      MHD_OPTION_END);
  if (server->daemon == NULL) {
    snprintf(error, error_size, "cannot listen on %s port %u (in use, or not an address of this machine)", address,
             (unsigned)port);
    pthread_mutex_destroy(&server->lock);
    pthread_cond_destroy(&server->wake);
    free(server);
    return NULL;
  }
  if (pthread_create(&server->watchdog, NULL, watch, server) != 0) {
    snprintf(error, error_size, "cannot start a thread");
    MHD_stop_daemon(server->daemon);
    pthread_mutex_destroy(&server->lock);
    pthread_cond_destroy(&server->wake);
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
  pthread_mutex_lock(&server->lock);
  server->stopping = 1;
  for (struct peer *peer = server->first; peer != NULL; peer = peer->next) cut(server, peer);
  pthread_cond_broadcast(&server->wake);
  pthread_mutex_unlock(&server->lock);
  pthread_join(server->watchdog, NULL);
  MHD_stop_daemon(server->daemon);
  pthread_mutex_destroy(&server->lock);
  pthread_cond_destroy(&server->wake);
  free(server);
}

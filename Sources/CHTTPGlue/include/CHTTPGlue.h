#ifndef STAMPCAM_HTTP_GLUE_H
#define STAMPCAM_HTTP_GLUE_H

// stampcam's C over libmicrohttpd: fixed-arity wrappers over its variadic API (MHD_start_daemon,
// MHD_get_daemon_info), the request body gathered up to a limit, and the headers every response carries. Swift sees
// only this header, never libmicrohttpd's.

#include <stddef.h>
#include <stdint.h>

/// One finished request, as the glue hands it to the handler. Every pointer is borrowed from libmicrohttpd or the
/// glue and valid only during the handler's call.
typedef struct stamp_http_request {
  const char *method;
  /// The path as sent, percent-decoded by libmicrohttpd, without the query string.
  const char *url;
  /// The Host, Origin and Content-Type headers, or NULL when the request has none.
  const char *host;
  const char *origin;
  const char *content_type;
  /// The whole body (NULL when empty); when it passed the limit, none of it is kept and body_too_large is 1.
  const uint8_t *body;
  size_t body_length;
  int body_too_large;
} stamp_http_request;

/// Where the handler puts its answer (opaque to Swift).
typedef struct stamp_http_reply stamp_http_reply;

/// Called once per request on one of the server's threads; it must call stamp_http_respond once (a request left
/// without an answer gets 500).
typedef void (*stamp_http_handler)(void *context, const stamp_http_request *request, stamp_http_reply *reply);

/// A running server (opaque to Swift).
typedef struct stamp_http_server stamp_http_server;

/// Starts a server on `address` (an IPv4 or IPv6 literal) and `port` (0: one the system picks), answering with
/// `handler` (passed `context`, which the caller keeps alive until stamp_http_stop returns), at most
/// `max_connections` at once (16 per client address), closing connections idle for `timeout_seconds`, keeping at
/// most `max_body` bytes of a body. Returns the server, which the caller owns and frees with stamp_http_stop; NULL on
/// failure, with the reason written into `error` (`error_size` bytes, NUL-terminated).
stamp_http_server *stamp_http_start(const char *address, uint16_t port, unsigned max_connections,
                                    unsigned timeout_seconds, size_t max_body, stamp_http_handler handler,
                                    void *context, char *error, size_t error_size);

/// The port the server listens on.
uint16_t stamp_http_port(const stamp_http_server *server);

/// Stops the server (waiting for requests in flight) and frees it.
void stamp_http_stop(stamp_http_server *server);

/// Answers the request: `status`, `content_type` (copied) and `length` bytes of `body` (copied, so the caller's
/// buffer may go as soon as this returns), with `extra_headers` (copied; NULL or "Name: value" lines joined by
/// "\n") and the headers every answer carries: no caching, no sniffing, no referrer, no framing. Returns 0 on
/// success, -1 when the answer could not be made (out of memory; the request then gets 500).
int stamp_http_respond(stamp_http_reply *reply, unsigned status, const char *content_type, const void *body,
                       size_t length, const char *extra_headers);

#endif

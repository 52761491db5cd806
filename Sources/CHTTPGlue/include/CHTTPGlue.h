#ifndef STAMPCAM_HTTP_GLUE_H
#define STAMPCAM_HTTP_GLUE_H

// stampcam's C over libmicrohttpd: fixed-arity wrappers over its variadic API (MHD_start_daemon,
// MHD_get_daemon_info), the request body gathered up to a limit, the headers every response carries, and the
// connections watched so that slow or idle clients cannot hold the server. Swift sees only this header, never
// libmicrohttpd's.

#include <stddef.h>
#include <stdint.h>

/// One request, as the glue hands it to the handler. Every pointer is borrowed from libmicrohttpd or the glue and
/// valid only during the handler's call.
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
  /// 1 for the first call, made as soon as the headers are in and before any of the body is read (or
  /// `100 Continue` sent): an answer then refuses the request; no answer lets it go on, and the handler is called
  /// again, with headers_only 0, once the body is in.
  int headers_only;
} stamp_http_request;

/// How many connections a server keeps, and for how long.
typedef struct stamp_http_limits {
  /// Connections none of whose requests has passed the handler's first call yet: when one more comes, the oldest
  /// of them is closed, so that slow clients cannot keep out one that presents its credentials at once.
  unsigned unproven_connections;
  /// Connections one of whose requests passed the first call; when these and the unproven are all taken, a new
  /// connection is refused at once (closed), never left waiting.
  unsigned proven_connections;
  /// A request must arrive whole (headers and body) within this many seconds of its connection opening or of the
  /// connection's previous answer; a connection that takes longer is closed.
  unsigned receive_seconds;
  /// A connection idle (sending an answer nobody reads) for this long is closed.
  unsigned idle_seconds;
  /// The largest body kept.
  size_t max_body;
} stamp_http_limits;

/// Where the handler puts its answer (opaque to Swift).
typedef struct stamp_http_reply stamp_http_reply;

/// Called on one of the server's threads, twice a request (see headers_only); it answers by calling
/// stamp_http_respond at most once (a request left without an answer after its body gets 500).
typedef void (*stamp_http_handler)(void *context, const stamp_http_request *request, stamp_http_reply *reply);

/// A running server (opaque to Swift).
typedef struct stamp_http_server stamp_http_server;

/// Starts a server on `address` (an IPv4 or IPv6 literal; an IPv6 one also answers IPv4 clients, as `::` should)
/// and `port` (0: one the system picks), answering with `handler` (passed `context`, which the caller keeps alive
/// until stamp_http_stop returns), within `limits`. Returns the server, which the caller owns and frees with
/// stamp_http_stop; NULL on failure, with the reason written into `error` (`error_size` bytes, NUL-terminated).
stamp_http_server *stamp_http_start(const char *address, uint16_t port, const stamp_http_limits *limits,
                                    stamp_http_handler handler, void *context, char *error, size_t error_size);

/// The port the server listens on.
uint16_t stamp_http_port(const stamp_http_server *server);

/// Stops the server: every connection is closed at once whatever its client is doing (a handler already running
/// finishes, its answer undelivered), then the server is freed.
void stamp_http_stop(stamp_http_server *server);

/// Answers the request: `status`, `content_type` (copied) and `length` bytes of `body` (copied, so the caller's
/// buffer may go as soon as this returns), with `extra_headers` (copied; NULL or "Name: value" lines joined by
/// "\n") and the headers every answer carries: no caching, no sniffing, no referrer, no framing. Returns 0 on
/// success, -1 when the answer could not be made (out of memory; the request then gets 500).
int stamp_http_respond(stamp_http_reply *reply, unsigned status, const char *content_type, const void *body,
                       size_t length, const char *extra_headers);

#endif

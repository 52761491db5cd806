import StampManifest

/// One request as the server read it.
package struct HTTPRequest: Sendable {
  /// `GET`, `POST`...
  package var method: String
  /// The path, without the query string.
  package var path: String
  /// The `Host`, `Origin` and `Content-Type` headers, when sent.
  package var host: String?
  package var origin: String? = nil
  package var contentType: String? = nil
  /// The body; empty when it was larger than the server's limit (`bodyTooLarge`).
  package var body: [UInt8] = []
  package var bodyTooLarge = false
}

/// One answer: the status, the type, the bytes, and headers beyond those every answer carries (no caching, no
/// sniffing, no referrer, no framing).
package struct HTTPResponse: Sendable {
  package var status: Int
  package var contentType: String
  package var body: [UInt8]
  package var headers: [(String, String)] = []

  package init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.headers = headers
  }

  /// A JSON answer.
  package static func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "application/json", body: Array(text.utf8))
  }

  /// `{"error": message}` with `status`.
  package static func error(_ status: Int, _ message: String) -> HTTPResponse {
    json("{\"error\": \(JSONText.string(message).inline)}\n", status: status)
  }
}

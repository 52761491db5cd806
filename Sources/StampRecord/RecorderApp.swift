import StampCore
import StampFiles
import StampManifest
import Synchronization

/// The recorder behind the server: one page's recording, behind one lock, and the answers to the page's requests.
/// Every request passes the `AccessGuard` first; a POST must carry JSON (`Content-Type: application/json`) of at
/// most the server's body limit.
package final class RecorderApp: Sendable {
  /// How the recorder reads and renders, as `stampcam render` would with the same options.
  package struct Settings: Sendable {
    package var maxPixels = Limits().maxPixels
    package var inputs = InputPolicy()
    package init() {}
  }

  let recording: Mutex<Recording>
  let store: Mutex<ManifestStore>
  let images: JobImages
  let settings: Settings
  /// The last Render's pictures, served until the next.
  let rendered = Mutex<PreviewRender?>(nil)
  /// Whether a save happened since the last change.
  let saved = Mutex(false)
  /// For a job over many photos, the photos and the one shown (see `RecorderApp+Photos`).
  let folder: Mutex<FolderView?>

  package init(
    recording: Recording, store: ManifestStore, images: JobImages, settings: Settings, folder: FolderView? = nil
  ) {
    self.recording = Mutex(recording)
    self.store = Mutex(store)
    self.images = images
    self.settings = settings
    self.folder = Mutex(folder)
  }

  /// Answers one request that `guard` let through (or refuses it).
  package func handle(_ request: HTTPRequest, guard access: AccessGuard) -> HTTPResponse {
    let rest: String
    switch access.check(request) {
    case .refused(let status, let reason): return .error(status, reason)
    case .allowed(let path): rest = path
    }
    if rest.isEmpty {
      // The page's links are relative to the folder `/TOKEN/`.
      return HTTPResponse(status: 308, contentType: "text/plain", body: [], headers: [("Location", request.path + "/")])
    }
    switch request.method {
    case "GET", "HEAD": return get(rest)
    case "POST":
      if request.bodyTooLarge { return .error(413, "the body is larger than the limit") }
      let type = request.contentType?.split(separator: ";").first?.filter { $0 != " " }.lowercased()
      guard type == "application/json" else {
        return .error(415, "requests carry JSON (Content-Type: application/json)")
      }
      let body: JSONValue
      do {
        body = try JSONParser(maxDepth: 8, maxBytes: 1 << 20).parse(request.body, file: "the request")
      } catch {
        return .error(400, "\(error)")
      }
      return post(rest, body)
    default:
      return HTTPResponse.error(405, "method not allowed")
    }
  }

  private func get(_ path: String) -> HTTPResponse {
    switch path {
    case "/":
      return HTTPResponse(
        status: 200, contentType: "text/html; charset=utf-8", body: RecorderPage.html,
        headers: [("Content-Security-Policy", RecorderPage.contentSecurityPolicy)])
    case "/photo": return shownPhoto()
    case "/api/state": return .json(recording.withLock { $0.stateJSON })
    case "/api/photos": return photosAnswer()
    case "/render/output": return rendered.withLock { $0 }.map { image($0.output) } ?? .error(404, "not rendered")
    case "/render/view": return rendered.withLock { $0?.view }.map(image) ?? .error(404, "no view output")
    default:
      if path.hasPrefix("/photos/") { return photo(named: path.dropFirst(8)) }
      if path.hasPrefix("/stamps/"), let index = Int(path.dropFirst(8)), images.stamps.indices.contains(index) {
        return image(images.stamps[index])
      }
      return .error(404, "not found")
    }
  }

  func image(_ image: JobImages.Image) -> HTTPResponse {
    HTTPResponse(status: 200, contentType: image.type, body: image.bytes)
  }
}

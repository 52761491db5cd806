import StampCore
import StampFiles
import StampManifest
import Synchronization

/// The recorder behind the server: a recording per page open on it (each its own `StampSession`, fingers and
/// history, so that two pages never move or lift each other's fingers), and the answers to the pages' requests.
/// Every request passes the `AccessGuard` first; a POST must carry JSON (`Content-Type: application/json`) of at
/// most the server's body limit, and, but for the one that opens a page, the page's id (`"page"`).
package final class RecorderApp: Sendable {
  /// How the recorder reads and renders, as `stampcam render` would with the same options, and its limits.
  package struct Settings: Sendable {
    package var maxPixels = Limits().maxPixels
    package var inputs = InputPolicy()
    /// The most touch events one page may feed.
    package var maxEvents = Recording.defaultMaxEvents
    /// The most pages kept at once; opening one more drops the one unused longest.
    package var maxPages = 8
    package init() {}
  }

  /// The pages open, by id, and the order they were last used in.
  struct Pages: Sendable {
    var recordings: [String: Recording] = [:]
    var lastUse: [String: UInt64] = [:]
    var uses: UInt64 = 0
    /// The page that fed last: the one `GET api/state` describes.
    var latest: String?
  }

  let pages = Mutex(Pages())
  /// What a new page starts from: the job with the gestures the manifest holds.
  let start: Mutex<Recording>
  let store: Mutex<ManifestStore>
  /// The job's gestures as the manifest holds them; nil for a new job not saved yet.
  let savedGestures: Mutex<[GestureItem]?>
  let images: JobImages
  let settings: Settings
  /// The last Render's pictures, served until the next.
  let rendered = Mutex<PreviewRender?>(nil)
  /// For a job over many photos, the photos and which each page shows (see `RecorderApp+Photos`).
  let folder: Mutex<FolderView?>

  package init(
    recording: Recording, store: ManifestStore, images: JobImages, settings: Settings, folder: FolderView? = nil
  ) {
    start = Mutex(recording)
    savedGestures = Mutex(store.holdsJob ? recording.job.gestures : nil)
    self.store = Mutex(store)
    self.images = images
    self.settings = settings
    self.folder = Mutex(folder)
  }

  /// Screens a request whose headers alone are in: refused unless `guard` lets it through, before its body is
  /// read; nil lets it go on.
  package func screen(_ request: HTTPRequest, guard access: AccessGuard) -> HTTPResponse? {
    if case .refused(let status, let reason) = access.check(request) { return .error(status, reason) }
    return nil
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
    case "/photo": return image(images.photo)
    case "/api/state":
      // For tools: the page that fed last (or what a new page starts from).
      let latest = pages.withLock { pages in pages.latest.flatMap { id in pages.recordings[id].map { (id, $0) } } }
      if let (id, recording) = latest { return .json(state(of: recording, page: id)) }
      return .json(state(of: start.withLock { $0 }, page: nil))
    case "/render/output": return rendered.withLock { $0 }.map { image($0.output) } ?? .error(404, "not rendered")
    case "/render/view": return rendered.withLock { $0?.view }.map(image) ?? .error(404, "no view output")
    default:
      if path.hasPrefix("/api/state/") {
        let id = String(path.dropFirst("/api/state/".count))
        guard let recording = pages.withLock({ $0.recordings[id] }) else { return Self.gone }
        return .json(state(of: recording, page: id))
      }
      if path.hasPrefix("/photos/") { return photo(named: path.dropFirst(8)) }
      if path.hasPrefix("/stamps/"), let index = Int(path.dropFirst(8)), images.stamps.indices.contains(index) {
        return image(images.stamps[index])
      }
      return .error(404, "not found")
    }
  }

  /// The answer to a request for a page the server no longer holds.
  static let gone = HTTPResponse.error(
    410,
    "this page is no longer open on the server (pages opened since took its place, or the recorder was "
      + "started again): reload it")

  /// A page's state, with its id and whether the manifest holds what it shows.
  func state(of recording: Recording, page: String?) -> String {
    let saved = savedGestures.withLock { $0 }
    let unsaved = saved.map { $0 != recording.recordedJob.gestures } ?? true
    var extra: [(String, JSONText)] = [("unsaved", .literal(unsaved ? "true" : "false"))]
    if let page { extra.append(("page", .string(page))) }
    return recording.stateJSON(adding: extra)
  }

  func image(_ image: JobImages.Image) -> HTTPResponse {
    HTTPResponse(status: 200, contentType: image.type, body: image.bytes)
  }
}

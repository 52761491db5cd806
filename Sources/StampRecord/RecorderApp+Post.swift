import StampCore
import StampManifest

extension RecorderApp {
  /// The most frames one request may carry, and inputs one frame may.
  static let maxFrames = 240
  static let maxInputs = 20

  func post(_ path: String, _ body: JSONValue) -> HTTPResponse {
    if path == "/api/page" { return openPage(body) }
    guard case .string(let id)? = body["page"]?.kind else {
      return .error(400, "the request needs the page's id (\"page\"): reload the page")
    }
    switch path {
    case "/api/frames":
      let frames: [(t: Double, input: [PageInput])]
      do {
        frames = try Self.frames(body)
      } catch {
        return .error(400, "\(error)")
      }
      return withPage(id) { recording in
        for frame in frames {
          do {
            try recording.feed(frame.input, at: frame.t)
          } catch {
            return .error(409, "\(error)")
          }
        }
        return .json(state(of: recording, page: id))
      }
    case "/api/advance":
      guard case .number(let t)? = body["t"]?.kind, t.isFinite else { return .error(400, "advance needs {\"t\"}") }
      return withPage(id) { recording in
        recording.closeItemIfOver(at: t)
        return .json(state(of: recording, page: id))
      }
    case "/api/undo":
      return withPage(id) { recording in
        guard recording.undo() else { return .error(409, "nothing to undo (or a finger is down)") }
        return .json(state(of: recording, page: id))
      }
    case "/api/save":
      guard let recorded = pages.withLock({ $0.recordings[id]?.recordedJob }) else { return Self.gone }
      if let refusal = changedInputs(doing: "saved") { return refusal }
      let job = savedJob(recorded)
      do {
        try store.withLock { try $0.save(job) }
      } catch {
        return .error(500, "\(error)")
      }
      savedGestures.withLock { $0 = job.gestures }
      // Pages opened from now on start from what was saved.
      if let next = try? Recording(
        job: startJob(job), imageSize: images.photoSize, stampSizes: images.stampSizes, maxEvents: settings.maxEvents)
      {
        start.withLock { $0 = next }
      }
      let path = store.withLock { $0.path }
      let answer = withPage(id) { .json(state(of: $0, page: id)) }
      return .json(
        JSONText.object([
          ("saved", .string(path)), ("items", .literal(String(job.gestures.count))),
          ("state", .literal(String(decoding: answer.body, as: UTF8.self).trimmingTrailingNewline)),
        ]).inline + "\n")
    case "/api/render":
      guard let job = pages.withLock({ $0.recordings[id]?.recordedJob }) else { return Self.gone }
      if let refusal = changedInputs(doing: "rendered") { return refusal }
      do {
        let render = try PreviewRender(job, maxPixels: settings.maxPixels, inputs: settings.inputs)
        rendered.withLock { $0 = render }
        let view: JSONText = render.view == nil ? .literal("null") : .string("render/view")
        return .json(JSONText.object([("output", .string("render/output")), ("view", view)]).inline + "\n")
      } catch {
        return .error(500, "\(error)")
      }
    case "/api/photo":
      return step(body, page: id)
    case "/api/photos":
      return photosAnswer(page: id)
    default:
      return .error(404, "not found")
    }
  }

  /// A new page's recording (`{"t": seconds}` on the page's clock), or, with `{"resume": id}` of a page the
  /// server still holds (the same page reloaded), that page's, its fingers taken away and its item closed.
  func openPage(_ body: JSONValue) -> HTTPResponse {
    var t = 0.0
    if case .number(let time)? = body["t"]?.kind, time.isFinite, time >= 0 { t = time }
    var resume: String?
    if case .string(let id)? = body["resume"]?.kind { resume = id }
    let fresh = start.withLock { $0 }
    return pages.withLock { pages in
      pages.uses += 1
      if let id = resume, var recording = pages.recordings.removeValue(forKey: id) {
        // Lifts and cancels are always taken, so this cannot fail but on a broken stream; kept as it was then.
        try? recording.feed([.cancelAll], at: t)
        recording.closeItemIfOver(at: .infinity)
        pages.recordings[id] = recording
        pages.lastUse[id] = pages.uses
        pages.latest = id
        return .json(state(of: recording, page: id))
      }
      if pages.recordings.count >= settings.maxPages,
        let oldest = pages.lastUse.min(by: { $0.value < $1.value })?.key
      {
        pages.recordings[oldest] = nil
        pages.lastUse[oldest] = nil
        if pages.latest == oldest { pages.latest = nil }
      }
      var generator = SystemRandomNumberGenerator()
      let id = (0..<2).map { _ in
        let digits = String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
      }.joined()
      pages.recordings[id] = fresh
      pages.lastUse[id] = pages.uses
      pages.latest = id
      return .json(state(of: fresh, page: id))
    }
  }

  /// Runs `body` on page `id`'s recording under the pages' lock, the page marked as used; 410 when the server does
  /// not hold it.
  func withPage(_ id: String, _ body: (inout Recording) -> HTTPResponse) -> HTTPResponse {
    pages.withLock { pages in
      guard var recording = pages.recordings.removeValue(forKey: id) else { return Self.gone }
      defer { pages.recordings[id] = recording }
      pages.uses += 1
      pages.lastUse[id] = pages.uses
      pages.latest = id
      return body(&recording)
    }
  }

  /// 409 naming the photo or stamps whose files changed since the recorder read them, or nil when none did.
  private func changedInputs(doing what: String) -> HTTPResponse? {
    let changed = images.changedFiles()
    guard !changed.isEmpty else { return nil }
    return .error(
      409,
      "\(changed.joined(separator: ", ")) changed on disk since the recorder started (edited, replaced or removed): "
        + "the page shows the old picture, so nothing was \(what); start stampcam record again to use the new one")
  }

  /// The frames of a `/api/frames` body: `{"page": id, "frames": [{"t": seconds, "input": [...]}]}`, each input
  /// `{"pointer": N, "phase": "began", "x", "y"}`, `{"mouse": "down", "x", "y", "shift": true}` or
  /// `{"cancel": true}` (every finger of the page down taken away).
  static func frames(_ body: JSONValue) throws(RecordError) -> [(t: Double, input: [PageInput])] {
    guard case .array(let frames)? = body["frames"]?.kind, frames.count <= maxFrames else {
      throw .manifest("frames needs {\"frames\": [...]} with at most \(maxFrames) frames")
    }
    return try frames.map { frame throws(RecordError) in
      guard case .number(let t)? = frame["t"]?.kind, t.isFinite, t >= 0,
        case .array(let inputs)? = frame["input"]?.kind, inputs.count <= maxInputs
      else {
        throw .manifest("a frame needs {\"t\": seconds, \"input\": [...]} with at most \(maxInputs) inputs")
      }
      return (t, try inputs.map(input))
    }
  }

  private static func input(_ value: JSONValue) throws(RecordError) -> PageInput {
    if value["cancel"]?.kind == .bool(true) { return .cancelAll }
    guard case .number(let x)? = value["x"]?.kind, case .number(let y)? = value["y"]?.kind,
      abs(x) <= 1_000_000, abs(y) <= 1_000_000
    else { throw .manifest("an input needs x and y within +-1000000") }
    let at = StampPoint(x, y)
    if case .string(let name)? = value["mouse"]?.kind, let phase = PageInput.MousePhase(rawValue: name) {
      let shift = value["shift"]?.kind == .bool(true)
      return .mouse(phase, at: at, shift: shift)
    }
    guard case .number(let pointer)? = value["pointer"]?.kind, let id = Int(exactly: pointer),
      case .string(let name)? = value["phase"]?.kind, let phase = TouchPhase(rawValue: name)
    else { throw .manifest("an input needs {\"pointer\", \"phase\"} or {\"mouse\"}") }
    return .touch(pointer: id, phase: phase, at: at)
  }
}

extension String {
  fileprivate var trimmingTrailingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

import StampCore
import StampManifest

extension RecorderApp {
  /// The most frames one request may carry, and inputs one frame may.
  static let maxFrames = 240
  static let maxInputs = 20

  func post(_ path: String, _ body: JSONValue) -> HTTPResponse {
    switch path {
    case "/api/frames":
      let frames: [(t: Double, input: [PageInput])]
      do {
        frames = try Self.frames(body)
      } catch {
        return .error(400, "\(error)")
      }
      return recording.withLock { recording -> HTTPResponse in
        for frame in frames {
          do {
            try recording.feed(frame.input, at: frame.t)
          } catch {
            return .error(409, "\(error)")
          }
        }
        saved.withLock { $0 = false }
        return .json(recording.stateJSON)
      }
    case "/api/advance":
      guard case .number(let t)? = body["t"]?.kind, t.isFinite else { return .error(400, "advance needs {\"t\"}") }
      return .json(
        recording.withLock { recording in
          recording.closeItemIfOver(at: t)
          return recording.stateJSON
        })
    case "/api/undo":
      return recording.withLock { recording in
        guard recording.undo() else { return .error(409, "nothing to undo (or a finger is down)") }
        saved.withLock { $0 = false }
        return .json(recording.stateJSON)
      }
    case "/api/save":
      let job = savedJob(recording.withLock { $0.recordedJob })
      do {
        try store.withLock { try $0.save(job) }
      } catch {
        return .error(500, "\(error)")
      }
      saved.withLock { $0 = true }
      let path = store.withLock { $0.path }
      return .json(
        JSONText.object([("saved", .string(path)), ("items", .literal(String(job.gestures.count)))]).inline + "\n")
    case "/api/render":
      let job = recording.withLock { $0.recordedJob }
      do {
        let render = try PreviewRender(job, maxPixels: settings.maxPixels, inputs: settings.inputs)
        rendered.withLock { $0 = render }
        let view: JSONText = render.view == nil ? .literal("null") : .string("render/view")
        return .json(JSONText.object([("output", .string("render/output")), ("view", view)]).inline + "\n")
      } catch {
        return .error(500, "\(error)")
      }
    case "/api/photo":
      return step(body)
    default:
      return .error(404, "not found")
    }
  }

  /// The frames of a `/api/frames` body: `{"frames": [{"t": seconds, "input": [...]}]}`, each input
  /// `{"pointer": N, "phase": "began", "x", "y"}`, `{"mouse": "down", "x", "y", "shift": true}` or
  /// `{"cancel": true}` (every finger down taken away).
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

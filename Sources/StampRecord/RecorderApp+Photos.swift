import StampCore
import StampManifest
import Synchronization

/// A job over many photos in the recorder: the photos it steps through (`steps.index` the one it opened on, where
/// every new page starts), and the photo each page shows, by page id. No photo's bytes are kept: `photos/N` reads
/// photo N when a page asks for it.
package struct FolderView: Sendable {
  package var steps: PhotoSteps
  /// The photo each page that stepped shows; a page not listed shows `steps.index`.
  var shown: [String: Int] = [:]

  package init(steps: PhotoSteps) {
    self.steps = steps
  }

  /// The photo bar of page `id`.
  func bar(page id: String) -> JSONText {
    var steps = self.steps
    steps.show(shown[id] ?? steps.index)
    return steps.json
  }
}

extension RecorderApp {
  /// What Save writes: for a job over many photos, the job as the manifest writes it (its `photos`, output template
  /// and photo-relative placements untouched) with the recorded script; otherwise the recorded job.
  func savedJob(_ recorded: JobEntry) -> JobEntry {
    guard let template = folder.withLock({ $0?.steps.template }) else { return recorded }
    var job = template
    job.gestures = recorded.gestures
    return job
  }

  /// What a page opened after a save starts from: `saved`, or for a job over many photos the job of the photo the
  /// recorder opened on, with the saved script.
  func startJob(_ saved: JobEntry) -> JobEntry {
    folder.withLock { view in view.flatMap { $0.steps.job(at: $0.steps.index, gestures: saved.gestures) } } ?? saved
  }

  /// `GET /photos/N`: photo N (from 0) of a job over many photos, read now; 404 for any other N (the index picks
  /// the photo: no URL names a file).
  func photo(named text: Substring) -> HTTPResponse {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let index = Int(text)
    else { return .error(404, "not found") }
    return photo(at: index)
  }

  private func photo(at index: Int) -> HTTPResponse {
    guard let steps = folder.withLock({ $0?.steps }), let job = steps.job(at: index, gestures: []) else {
      return .error(404, "not found")
    }
    var photoOnly = job
    photoOnly.stamps = []
    do {
      return image(try JobImages(of: photoOnly, maxPixels: settings.maxPixels, inputs: settings.inputs).photo)
    } catch {
      return .error(422, "photo \(index + 1), \(job.id): \(error)")
    }
  }

  /// `POST /api/photos`: `{"photo": {"index", "count", "total", "photo", "job"}}` for the page, or `{"photo": null}`
  /// for a job of one photo.
  func photosAnswer(page id: String) -> HTTPResponse {
    let bar = folder.withLock { $0?.bar(page: id) } ?? .literal("null")
    return .json(JSONText.object([("photo", bar)]).inline + "\n")
  }

  /// `POST /api/photo {"index": N}`: shows the photo at N (from 0, the expansion's order) with the script recorded
  /// so far replayed on it as the batch would replay it there, and answers `{"photo": {...}, "state": {...}}`.
  /// Refused, and nothing changes: a job of one photo (404), an index that is not a whole number (400) or names no
  /// photo (422), a finger down (409), a photo that cannot be read or a script that cannot be replayed on it (422).
  func step(_ body: JSONValue, page id: String) -> HTTPResponse {
    guard let steps = folder.withLock({ $0?.steps }) else {
      return .error(404, "this job has one photo: there is no other photo to show")
    }
    guard case .number(let number)? = body["index"]?.kind, let index = Int(exactly: number) else {
      return .error(400, "photo needs {\"index\": N}, a whole number from 0")
    }
    guard index >= 0, index < steps.count else {
      let range = steps.count == 0 ? "it has none" : "its photos are 0 to \(steps.count - 1)"
      return .error(422, "there is no photo at index \(index): \(range)")
    }
    return withPage(id) { recording -> HTTPResponse in
      guard !recording.touching else { return .error(409, "a finger is down: lift it before changing the photo") }
      guard let job = steps.job(at: index, gestures: recording.items) else {
        return .error(422, "there is no photo at index \(index)")
      }
      // Only the photo is read: the stamps are the same files, measured when the recorder started.
      var photoOnly = job
      photoOnly.stamps = []
      let next: Recording
      do {
        let shown = try JobImages(of: photoOnly, maxPixels: settings.maxPixels, inputs: settings.inputs)
        next = try Recording(
          job: job, imageSize: shown.photoSize, stampSizes: images.stampSizes, maxEvents: settings.maxEvents)
      } catch {
        return .error(422, "photo \(index + 1), \(job.id): \(error)")
      }
      recording.carry(to: next)
      let bar = folder.withLock { view -> JSONText in
        view?.shown[id] = index
        return view?.bar(page: id) ?? .literal("null")
      }
      rendered.withLock { $0 = nil }
      let state = self.state(of: recording, page: id).trimmingSuffixNewline
      return .json(JSONText.object([("photo", bar), ("state", .literal(state))]).inline + "\n")
    }
  }
}

extension Recording {
  /// Becomes `next` (the same script replayed on another photo), keeping the page's counts of frames and touch
  /// events: the limit on what one page may feed holds across photos.
  mutating func carry(to next: Recording) {
    let (frames, events) = (self.frames, self.events)
    self = next
    self.frames = frames
    self.events = events
  }
}

extension String {
  fileprivate var trimmingSuffixNewline: String {
    hasSuffix("\n") ? String(dropLast()) : self
  }
}

import Foundation
import StampCore
import StampManifest
import StampSystem

/// What `stampcam record` opens: an existing job of the manifest, or a new one made from a photo and stamps.
package struct RecorderLaunch: Sendable {
  /// A new job: its photo and stamp images (paths as given on the command line) and its screen.
  package struct NewJob: Sendable, Equatable {
    package var base: String
    package var stamps: [String]
    package var view: StampSize
    package init(base: String, stamps: [String], view: StampSize = StampSize(390, 844)) {
      self.base = base
      self.stamps = stamps
      self.view = view
    }
  }

  package var manifest: String
  /// The job to open, or the new job's id.
  package var job: String?
  package var newJob: NewJob?
  package var settings = RecorderApp.Settings()

  package init(manifest: String, job: String?, newJob: NewJob?, settings: RecorderApp.Settings) {
    self.manifest = manifest
    self.job = job
    self.newJob = newJob
    self.settings = settings
  }

  /// Reads the manifest and the job's images, replays its script, and returns the recorder for it.
  ///
  /// - Throws: `RecordError` naming the manifest, the job or the image at fault.
  package func open() throws(RecordError) -> RecorderApp {
    // A save killed midway (kill -9) left its temporary file beside the manifest: nothing else would remove it.
    ManifestStore.removeStaleTemporaries(of: manifest)
    let exists = (try? FileStatus(path: manifest)) != nil
    var jobs: [JobEntry] = []
    if exists {
      do {
        jobs = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: manifest)).jobs
      } catch {
        throw .manifest(error.diagnostics.map(\.description).joined(separator: "\n"))
      }
    }
    let entry: JobEntry
    var store: ManifestStore
    if let newJob {
      let id = job ?? Self.freshID(among: jobs.map(\.id))
      guard !jobs.contains(where: { $0.id == id }) else {
        throw .manifest("\(manifest): it already has a job \"\(id)\" (leave out --base to record into it)")
      }
      entry = make(newJob, id: id)
      store = ManifestStore(path: manifest, holdsJob: false)
      store.spelling = Dictionary(
        ([newJob.base] + newJob.stamps).map { (absolute($0), spelled($0)) }, uniquingKeysWith: { a, _ in a })
    } else {
      guard exists else { throw .manifest("\(manifest): no such file (give --base PHOTO to start a new job)") }
      if let job, let template = Self.template(making: job, among: jobs) {
        return try openFolder(template, photoJob: job, store: ManifestStore(path: manifest, holdsJob: true))
      }
      let ids = jobs.map(\.id)
      guard let chosen = job.map({ id in jobs.first { $0.id == id } }) ?? (jobs.count == 1 ? jobs.first : nil) else {
        let which = job.map { "no job with id '\($0)'" } ?? "--job ID chooses one of its \(jobs.count) jobs"
        throw .manifest("\(manifest): \(which) (ids: \(ids.prefix(20).joined(separator: ", ")))")
      }
      entry = chosen
      store = ManifestStore(path: manifest, holdsJob: true)
      if entry.photos != nil { return try openFolder(entry, photoJob: nil, store: store) }
    }
    let images = try JobImages(of: entry, maxPixels: settings.maxPixels, inputs: settings.inputs)
    let recording = try Recording(
      job: entry, imageSize: images.photoSize, stampSizes: images.stampSizes, maxEvents: settings.maxEvents)
    return RecorderApp(recording: recording, store: store, images: images, settings: settings)
  }

  /// `recorded`, or `recorded-2`, `recorded-3`... when taken.
  static func freshID(among ids: [String]) -> String {
    var n = 1
    while ids.contains(n == 1 ? "recorded" : "recorded-\(n)") { n += 1 }
    return n == 1 ? "recorded" : "recorded-\(n)"
  }

  /// The new job: stamps a quarter of the screen wide, in a row across its middle; outputs named after its id.
  private func make(_ new: NewJob, id: String) -> JobEntry {
    let count = Double(new.stamps.count)
    let stamps = new.stamps.enumerated().map { i, image in
      let name = ((image as NSString).lastPathComponent as NSString).deletingPathExtension
      return StampEntry(
        id: "\(name.isEmpty ? "stamp" : name)-\(i + 1)", image: absolute(image),
        center: StampPoint(new.view.width * (Double(i) + 1) / (count + 1), new.view.height / 2),
        width: new.view.width / 4)
    }
    return JobEntry(
      id: id, base: absolute(new.base), output: "\(id).jpg", viewOutput: "\(id)-screen.jpg", view: new.view,
      stamps: stamps)
  }

  /// A path from the command line made absolute (against the current folder).
  private func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// How the manifest names a file: relative to the manifest's folder when it lies inside it, absolute otherwise.
  private func spelled(_ path: String) -> String {
    let folder = URL(fileURLWithPath: manifest).deletingLastPathComponent().standardizedFileURL.path
    let file = absolute(path)
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
  }
}

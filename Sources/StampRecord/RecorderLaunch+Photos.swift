import StampManifest

extension RecorderLaunch {
  /// The job over many photos among `jobs` that makes the photo's job `id` (`JOBID/RELATIVE-PATH`), when no listed
  /// job is `id`: the one with the longest id that `id` starts with, followed by a `/`.
  static func template(making id: String, among jobs: [JobEntry]) -> JobEntry? {
    guard !jobs.contains(where: { $0.id == id }) else { return nil }
    return jobs.filter { $0.photos != nil && id.hasPrefix($0.id + "/") }.max { $0.id.utf8.count < $1.id.utf8.count }
  }

  /// The recorder on a job over many photos: its photos expanded as the batch expands them, the one shown first
  /// (the photo's job `photoJob`, or the first photo), its stamps placed against that photo, the job's script
  /// replayed on it.
  ///
  /// - Throws: `RecordError` when the job's photos cannot be expanded, `photoJob` is none of them, or the photo or
  ///   a stamp cannot be read.
  func openFolder(_ template: JobEntry, photoJob: String?, store: ManifestStore) throws(RecordError) -> RecorderApp {
    var steps = try PhotoSteps(template, file: manifest)
    var index = 0
    if let photoJob {
      guard let found = steps.index(ofJob: photoJob) else {
        let first = (0..<min(steps.count, 3)).compactMap { steps.photo(at: $0)?.relative }
        throw .manifest(
          "\(manifest): no job with id '\(photoJob)': job \"\(template.id)\" makes one job a photo, "
            + "\"\(template.id)/PHOTO\", for its \(steps.total) photos (\(first.joined(separator: ", "))...)")
      }
      index = found
    }
    guard let job = steps.job(at: index, gestures: template.gestures) else {
      throw .manifest("\(manifest): job \"\(template.id)\": no photo to show")
    }
    steps.show(index)
    let images: JobImages
    do {
      images = try JobImages(of: job, maxPixels: settings.maxPixels, inputs: settings.inputs)
    } catch {
      // A photo that cannot be read need not keep the recorder from the others.
      let photoAtFault = steps.count > 1 && "\(error)".contains(job.base)
      let other = photoAtFault ? " (--job \"\(template.id)/PHOTO\" opens it on another of its photos)" : ""
      throw .input("job \"\(job.id)\": \(error)\(other)")
    }
    let recording = try Recording(
      job: job, imageSize: images.photoSize, stampSizes: images.stampSizes, maxEvents: settings.maxEvents)
    return RecorderApp(
      recording: recording, store: store, images: images, settings: settings,
      folder: FolderView(steps: steps))
  }
}

import StampFiles

/// What one job's rendering is given by the run it belongs to, handed down as a parameter from the batch to the
/// JPEG and libvips paths (never found on the thread): the job's stop switch and its budget of stamp pixels, the
/// run's idle JPEG codecs and the run's temporary files. Two contexts share only what their maker gave both.
package struct JobContext: Sendable {
  /// The job's stop switch: evaluations and libjpeg's work watch it.
  package let control: JobControl
  /// What the job's stamps may decode, in pixels; nil: no limit (tests, and callers drawing one stamp).
  package let budget: StampBudget?
  /// Idle codecs, lent to one job at a time and kept between the run's jobs.
  package let codecs: JPEGCodecPool
  /// Where the job's temporary files are registered while they are written, so that the run's signal handling
  /// removes them (`TemporaryFiles.removeAll`), and whose lock its commits take.
  package let temporaries: TemporaryFiles

  /// A context of the parts given; by default each part its own (a job alone: a test, a single file).
  package init(
    control: JobControl = JobControl(), budget: StampBudget? = nil, codecs: JPEGCodecPool = JPEGCodecPool(),
    temporaries: TemporaryFiles = TemporaryFiles()
  ) {
    self.control = control
    self.budget = budget
    self.codecs = codecs
    self.temporaries = temporaries
  }
}

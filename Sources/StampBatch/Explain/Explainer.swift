import StampCore
import StampFiles
import StampManifest
import StampRender

/// `stampcam explain`: replays each job from headers alone and describes the outcome as JSON.
package struct Explainer: Sendable {
  /// What `explain` prints, and the jobs it could not replay.
  package struct Explanation: Sendable {
    /// The JSON document `{"jobs": [...]}`, one job per line.
    package var json: String
    /// Each job that could not be replayed (it has an `{"id", "error"}` entry in `json`), with the error.
    package var failures: [(job: JobEntry, message: String)]
  }

  /// Photos and stamps with more pixels are refused, as render would.
  package var maxPixels: Int
  /// The loaders allowed and the input root, as render would apply them.
  package var inputs: InputPolicy

  /// Creates an explainer reading inputs as `render` does with the same `--max-pixels` and input options.
  package init(maxPixels: Int = Limits().maxPixels, inputs: InputPolicy = InputPolicy()) {
    self.maxPixels = maxPixels
    self.inputs = inputs
  }

  /// Describes every job that can be replayed; a job that cannot (an unreadable photo, a gesture on a covered
  /// stamp) gets an entry `{"id", "error"}` in its place, and the others are described all the same.
  package func explain(_ jobs: [JobEntry]) -> Explanation {
    let renderer = JobRenderer.replaying(maxPixels: maxPixels, inputs: inputs)
    var lines: [String] = []
    var failures: [(job: JobEntry, message: String)] = []
    for job in jobs {
      do {
        // Stamp sizes from their headers too: explaining decodes no pixels at all.
        let (scene, _) = try renderer.replay(job) {
          try JobCheck.headerSize(of: $0, maxPixels: maxPixels, inputs: inputs)
        }
        lines.append(SceneJSON.describe(job.id, scene).inline)
      } catch {
        let message = JobCheck.told(error)
        failures.append((job, message))
        lines.append(SceneJSON.failure(job.id, message).inline)
      }
    }
    let json = "{\"jobs\": [\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n]}"
    return Explanation(json: json, failures: failures)
  }
}

import Foundation
import StampCore
import StampFiles
import StampManifest
import StampRender

/// What the manifest decoder cannot judge about a job: whether its outputs name a format stampcam writes (checked
/// before any rendering), whether its inputs exist (checked by stat, never by decoding, in `validate`), and
/// whether its gestures can be replayed on the photo and stamps its headers describe (in `validate`).
package enum JobCheck {
  /// A diagnostic for each output whose extension names no format stampcam writes, or one this machine has no
  /// encoder for (`encoders` says what is missing: by default what this machine's libvips lacks), and for each file
  /// the job writes (the overlay too when the job, or `overlayForEveryJob`, asks for it) with a name too long for its
  /// temporary file.
  package static func outputs(
    of job: JobEntry, file: String, overlayForEveryJob: Bool = false,
    encoders: (OutputFormat) -> String? = \.missingEncoder
  ) -> [Diagnostic] {
    return job.outputs(overlayForEveryJob: overlayForEveryJob).flatMap { written -> [Diagnostic] in
      var found: [String] = []
      // An overlay is written in its output's format: that one is told once, for the output.
      if written.kind != .overlay {
        if let format = OutputFormat(path: written.path) {
          if let missing = encoders(format) { found.append("\"\(written.path)\": \(missing)") }
        } else {
          found.append("\"\(written.path)\": unknown output format (use \(OutputFormat.extensions))")
        }
      }
      if let refusal = PathRules.longName(in: written.path) {
        found.append(written.kind == .overlay ? "its overlay \"\(written.path)\": \(refusal)" : "\(refusal)")
      }
      return found.map {
        Diagnostic(file: file, line: job.line, path: "jobs[\(job.index)].\(written.field)", message: $0)
      }
    }
  }

  /// A diagnostic for each input of `job` that is missing, not a regular file, or unreadable; and, without an input
  /// root (`root`), for a photo found by a folder walk that is a symbolic link (render does not open it through).
  package static func inputs(of job: JobEntry, file: String, root: String? = nil) -> [Diagnostic] {
    var found: [Diagnostic] = []
    var seen = Set<PathKey>()
    let inputs =
      [("jobs[\(job.index)].base", job.base)]
      + job.stamps.enumerated().map { ("jobs[\(job.index)].stamps[\($0)].image", $1.image) }
    for (k, (path, input)) in inputs.enumerated() where seen.insert(PathKey(input)).inserted {
      let followingLink = k > 0 || !job.photoFoundByWalk || root != nil
      if let problem = InputFile.problem(with: input, followingLink: followingLink) {
        found.append(Diagnostic(file: file, line: job.line, path: path, message: "\(input): \(problem)"))
      }
    }
    return found
  }

  /// A diagnostic when the job cannot be replayed as `render` would replay it, from the images' headers only: a
  /// photo or stamp whose header cannot be read or that has more than `maxPixels` pixels, a gesture that cannot
  /// be played (a drag on a stamp covered where it begins), a scene out of bounds (a stamp over a million pixels
  /// across). Pixels are never decoded, so a photo damaged past its header is found by `render` alone.
  /// `stampSize` gives a stamp's upright size (default: `headerSize`; a caller may keep the sizes it has read).
  /// `inputs` is the loader policy and input root render would apply.
  package static func replay(
    of job: JobEntry, file: String, maxPixels: Int = Limits().maxPixels, inputs: InputPolicy = InputPolicy(),
    stampSize: ((String) throws -> StampSize)? = nil
  ) -> [Diagnostic] {
    let renderer = JobRenderer.replaying(maxPixels: maxPixels, inputs: inputs)
    do {
      _ = try renderer.replay(job, checkingSizes: true) { image in
        try stampSize?(image) ?? headerSize(of: image, maxPixels: maxPixels, inputs: inputs)
      }
      return []
    } catch BatchError.outputTooLarge(let field, let output, let reason) {
      return [
        Diagnostic(file: file, line: job.line, path: "jobs[\(job.index)].\(field)", message: "\(output): \(reason)")
      ]
    } catch let error as ReplayError {
      return [Diagnostic(file: file, line: job.line, path: "jobs[\(job.index)].\(error.path)", message: error.message)]
    } catch {
      return [Diagnostic(file: file, line: job.line, path: "jobs[\(job.index)]", message: told(error))]
    }
  }

  /// A replay's error in the words render uses: a header libvips could not read is told by reading that file alone
  /// (`photo.jpg: a 12-bit JPEG...`, where libvips' own text said only "cannot read image").
  package static func told(_ error: any Error) -> String {
    guard let failure = RenderError(error) else { return "\(error)" }
    switch failure {
    case .unreadable(let path, _), .refused(let path, _, _): return "\(failure.diagnosed(reading: path))"
    default: return "\(error)"
    }
  }

  /// An image's upright size from its header; throws when the header cannot be read (with the loaders `inputs`
  /// allows, inside its root) or the image has more than `maxPixels` pixels, as the renderer refuses it.
  package static func headerSize(
    of image: String, maxPixels: Int = Limits().maxPixels, inputs: InputPolicy = InputPolicy()
  ) throws -> StampSize {
    let header = try ImageHeader.read(InputFile.open(image, root: inputs.root), policy: inputs)
    guard header.width * header.height <= maxPixels else {
      throw RenderError.tooLarge(path: image, width: header.width, height: header.height, limit: maxPixels)
    }
    return header.uprightSize
  }
}

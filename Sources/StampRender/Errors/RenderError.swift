import StampFiles

/// Everything that can go wrong while reading, drawing or writing pixels.
package enum RenderError: Error, CustomStringConvertible, Equatable {
  /// libvips could not start.
  case startup(String)
  /// A file could not be read as an image; carries the path and libvips' own message.
  case unreadable(path: String, message: String)
  /// stampcam's loader refused a file before libvips read it: why, and the reason in words.
  case refused(path: String, refusal: Refusal, message: String)
  /// An input is at fault, found by decoding it alone: the path and what is wrong, in plain words.
  case input(path: String, problem: String)
  /// An image has more pixels than allowed.
  case tooLarge(path: String, width: Int, height: Int, limit: Int)
  /// A photo file holds more bytes than allowed (see `Renderer.maxFileBytes`); refused before it is read.
  case fileTooLarge(path: String, limit: Int)
  /// A libvips operation failed on an image (e.g. truncated data found while decoding).
  case operation(path: String, operation: String, message: String)
  /// libjpeg found the photo damaged: cut short (`truncated`) or with corrupt data.
  case damaged(path: String, message: String, truncated: Bool)
  /// The job was stopped (`--job-timeout`, or a signal) while working on the file; told by the reason alone.
  case stopped(path: String, reason: String)
  /// The output could not be written.
  case write(path: String, message: String)
  /// libvips could not encode the output: its error lines (which may hold other jobs' failures, see `diagnosed`).
  case encoding(path: String, lines: [String])
  /// The output's extension names no format stampcam writes.
  case unsupportedFormat(path: String)

  package var description: String {
    switch self {
    case .startup(let message):
      return "libvips could not start: \(message)"
    case .unreadable(let path, let message), .refused(let path, _, let message):
      return "\(path): cannot read image: \(message)"
    case .input(let path, let problem):
      return "\(path): \(problem)"
    case .tooLarge(let path, let width, let height, let limit):
      return "\(path): image is \(width)x\(height) (\(width * height) pixels), over the limit of \(limit) pixels"
    case .fileTooLarge(let path, let limit):
      return "\(path): the file is over the limit of \(limit) bytes for a photo"
    case .operation(let path, let operation, let message):
      return "\(path): \(operation) failed: \(message)"
    case .damaged(let path, let message, let truncated):
      return truncated
        ? "\(path): truncated JPEG (--fail-on none renders what can be decoded)"
        : "\(path): corrupt JPEG data: \(message) (--fail-on none renders what can be decoded)"
    case .stopped(_, let reason):
      // The job was stopped, not failed by the file it was reading then: the reason names the job's limit or the
      // signal, and the file is no part of the message.
      return reason
    case .write(let path, let message):
      return "\(path): cannot write: \(message)"
    case .encoding(let path, let lines):
      return "\(path): cannot write: \(lines.joined(separator: "; "))"
    case .unsupportedFormat(let path):
      return "\(path): unknown output format (use \(OutputFormat.extensions))"
    }
  }
}

extension RenderError {
  /// Why stampcam's loader refused a file before libvips read it (`scv_load_refusal`).
  package enum Refusal: Equatable, Sendable {
    /// The file could not be opened again on a descriptor of its own.
    case cannotReopen
    /// No loader knows the file's first bytes.
    case unknownFormat
    /// A loader knows it, but the loader policy does not allow that loader.
    case loaderNotAllowed
  }
}

extension RenderError {
  /// `error` as a render error: itself, or a file layer's failure as the same message; nil for anything else.
  package init?(_ error: any Error) {
    switch error {
    case let error as RenderError: self = error
    case FileError.unreadable(let path, let message): self = .unreadable(path: path, message: message)
    case FileError.input(let path, let problem): self = .input(path: path, problem: problem)
    case FileError.write(let path, let message): self = .write(path: path, message: message)
    default: return nil
    }
  }
}

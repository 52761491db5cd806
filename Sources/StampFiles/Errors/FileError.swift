/// What can go wrong opening an input or writing an output: the path as the user named it and the cause in plain
/// words. The renderer and the batch report these as they report their own (see `RenderError.init(_:)`).
package enum FileError: Error, CustomStringConvertible, Equatable {
  /// The file could not be opened or resolved for reading.
  case unreadable(path: String, message: String)
  /// The file is not something stampcam reads (a FIFO, a device, a folder).
  case input(path: String, problem: String)
  /// The output could not be written.
  case write(path: String, message: String)

  package var description: String {
    switch self {
    case .unreadable(let path, let message): return "\(path): cannot read image: \(message)"
    case .input(let path, let problem): return "\(path): \(problem)"
    case .write(let path, let message): return "\(path): cannot write: \(message)"
    }
  }
}

/// What can go wrong in `stampcam record`; each message names the file or the address at fault.
package enum RecordError: Error, CustomStringConvertible, Equatable {
  /// The server could not listen (a bad address, a port in use).
  case listen(String)
  /// The manifest cannot be recorded into: unreadable, invalid, no such job, a job to add that is already there.
  case manifest(String)
  /// A photo or stamp cannot be read or measured.
  case input(String)
  /// The manifest could not be written.
  case save(String)

  package var description: String {
    switch self {
    case .listen(let m), .manifest(let m), .input(let m), .save(let m): m
    }
  }
}

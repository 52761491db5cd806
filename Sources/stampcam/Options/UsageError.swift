/// A mistake on the command line; printed as `stampcam: error: <message>` with exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
  var message: String
  var description: String { message }
}

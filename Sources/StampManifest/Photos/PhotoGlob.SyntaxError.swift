extension PhotoGlob {
  /// Why a pattern is not a photo glob, in the lower-case words of the manifest's messages.
  package struct SyntaxError: Error, Hashable, CustomStringConvertible {
    /// What is wrong, and where when that helps: "unclosed '[' at byte 7".
    package var message: String

    /// The message.
    package var description: String { message }

    init(_ message: String) {
      self.message = message
    }
  }
}

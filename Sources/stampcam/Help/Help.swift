/// The hand-written part of a command's help; `Usage` puts the generated synopsis before it and the declared
/// options' list in the middle.
struct Help: Sendable {
  /// The prose after the usage lines: what the command does.
  var about: String
  /// Text under a section's heading, before the options listed in it, by heading (`INPUTS`).
  var intros: [String: String] = [:]
  /// The prose after the options: further notes and the examples.
  var after: String = ""
}

/// One way to call a command: the words that select it, its one operand, and the options it takes, in the order
/// the synopsis shows them.
struct Form<Values: Sendable>: Sendable {
  /// Words after the command's name that choose this form (`getevent` in `import getevent LOG`); none for most.
  var words: [String] = []
  /// The one positional argument (`MANIFEST`, `LOG`); nil when the form takes none.
  var operand: String?
  /// Whether the operand may be given more than once (`render --script JOB PHOTO...`); `setOperand` is called for
  /// each, and the command judges how many it takes.
  var operandRepeats = false
  var options: [Option<Values>]
  /// The values before any option is read.
  var start: Values
  /// Stores the operand.
  var setOperand: @Sendable (inout Values, String) -> Void = { _, _ in }
  /// What is wrong with the operands once every argument is read (too many, for the values given), or nil.
  var operandsProblem: @Sendable (Values) -> String? = { _ in nil }

  /// `render`, or `import getevent`: how messages name the command.
  func title(_ command: String) -> String {
    ([command] + words).joined(separator: " ")
  }
}

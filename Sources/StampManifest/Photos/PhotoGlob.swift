/// A compiled photo glob: `*` (any bytes but `/`), `?` (one byte but `/`), `[...]` (a set of bytes, ranges `a-z`,
/// negation `[!...]` or `[^...]`, `]` first is literal), `**` as a whole component (any depth, zero or more folders),
/// `\` escaping the next byte. Matched on bytes (UTF-8), case-sensitively unless `ignoreCase` (ASCII letters fold).
/// A leading `*` or `?` does not match a name starting with `.` (hidden files, as shells do), and `**` does not enter
/// folders starting with `.`.
///
/// Components `.` are dropped (`./in/*.jpg` is `in/*.jpg`) and repeated slashes count as one. The root is opened as
/// written: `ignoreCase` folds the matched part only.
package struct PhotoGlob: Sendable, Hashable {
  /// The pattern's leading components that hold no metacharacter, joined with "/" ("" when none; "/" prefix kept for
  /// an absolute pattern): "in/2024" for "in/2024/**/*.jpg". Photos' relative paths start from it.
  package var root: String
  /// Whether ASCII letters match either case.
  package var ignoreCase: Bool
  /// The components after the root; never empty, and the last is a name pattern, never `**`.
  let components: [Component]

  /// Compiles `pattern`, or says what is wrong with it and where (bytes counted from 1).
  package init(_ pattern: String, ignoreCase: Bool = false) throws(SyntaxError) {
    let parsed = try Parser(pattern).parse()
    root = parsed.root
    components = parsed.components
    self.ignoreCase = ignoreCase
  }

  /// True when `relative` (a path under `root`, components separated by "/") matches the rest of the pattern.
  package func matches(_ relative: some Collection<UInt8>) -> Bool {
    let bytes = Array(relative)
    return bytes.withUnsafeBufferPointer { path in
      var states = start
      var from = 0
      while true {
        let end = path[from...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
        states = step(states, name: UnsafeBufferPointer(rebasing: path[from..<end]))
        if states.isEmpty { return false }
        if end == path.endIndex { return states.contains(components.count) }
        from = end + 1
      }
    }
  }

  /// The positions in `components` a walk stands at in the root folder: the first, and past each leading `**` (which
  /// may match no folder).
  var start: [Int] { closed([0]) }

  /// The positions reached after one more path component, `name`, from `states`: a position equal to
  /// `components.count` means the path so far matches the whole pattern; one below it means a folder of that name may
  /// hold matches.
  func step(_ states: [Int], name: UnsafeBufferPointer<UInt8>) -> [Int] {
    var next: [Int] = []
    // No entry has an empty name: one comes only from "//" in a path, which names nothing.
    if name.isEmpty { return next }
    for state in states where state < components.count {
      switch components[state] {
      case .anyFolders:
        if name.first != UInt8(ascii: ".") { next.append(state) }
      case .name(let tokens):
        if Token.matches(tokens, name, ignoreCase: ignoreCase) { next.append(state + 1) }
      }
    }
    return closed(next)
  }

  /// `states` with every position past a `**` added beside it, sorted, each once.
  private func closed(_ states: [Int]) -> [Int] {
    var all: [Int] = []
    for state in states {
      var position = state
      while true {
        if !all.contains(position) { all.append(position) }
        guard position < components.count, components[position] == .anyFolders else { break }
        position += 1
      }
    }
    return all.sorted()
  }
}

extension PhotoGlob {
  /// One component of the pattern after its root.
  enum Component: Sendable, Hashable {
    /// `**`: zero or more folders, none of them hidden.
    case anyFolders
    /// A name pattern.
    case name([Token])
  }
}

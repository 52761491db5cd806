/// Lays out the generated parts of the help: words wrapped to a width, and indented blocks.
enum TextLayout {
  /// Synopsis lines are at most this wide (without the help's two-space indent); the README shows them as they are.
  static let synopsisWidth = 100
  /// Option descriptions are wrapped to fit this width, indent included.
  static let width = 116

  /// `lead` then the items, as many to a line as fit in `width`, the following lines indented to where the first
  /// item began. An item is never broken (`[--report FILE|-]` stays whole).
  static func wrap(_ items: [String], lead: String, width: Int) -> [String] {
    let indent = String(repeating: " ", count: lead.count)
    var lines: [String] = []
    var line = lead
    for item in items {
      let fresh = line.count == lead.count
      if !fresh && line.count + 1 + item.count > width {
        lines.append(line)
        line = indent
      }
      line += (line.count == lead.count ? "" : " ") + item
    }
    lines.append(line)
    return lines
  }

  /// The words of `text`, wrapped as `wrap` does, after `lead`.
  static func words(_ text: String, lead: String, width: Int) -> [String] {
    wrap(text.split(separator: " ").map(String.init), lead: lead, width: width)
  }

  /// Each line of `text` indented by `count` spaces; blank lines stay empty.
  static func indent(_ text: String, by count: Int) -> String {
    let pad = String(repeating: " ", count: count)
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n")
  }
}

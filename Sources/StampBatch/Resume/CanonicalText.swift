/// A value written out field by field, the same way in every process and on every machine, for fingerprints.
///
/// Walks any value through `Mirror`, so a field added to a job or a scene later takes part without anyone
/// remembering to add it here. Numbers are written exactly (a `Double` by its bit pattern), strings with their
/// length, fields with their labels, enum cases by name; sets and dictionaries, whose order changes from one
/// process to the next, are sorted. Type names are left out: renaming a type changes no fingerprint.
enum CanonicalText {
  /// Feeds the canonical text of `value` to `digest`.
  static func add(_ value: Any, to digest: inout Digest) {
    digest.add(text(of: value))
  }

  /// The canonical text of `value`.
  static func text(of value: Any) -> String {
    var out = ""
    write(value, to: &out)
    return out
  }

  private static func write(_ value: Any, to out: inout String) {
    if let leaf = leaf(value) {
      out += leaf
      return
    }
    let mirror = Mirror(reflecting: value)
    let children = mirror.children.map { (label: $0.label, value: $0.value) }
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = children.first else {
        out += "nil"
        return
      }
      out += "some("
      write(wrapped.value, to: &out)
      out += ")"
    case .collection:
      out += "["
      for child in children {
        write(child.value, to: &out)
        out += ","
      }
      out += "]"
    case .set, .dictionary:
      out += "{" + children.map { text(of: $0.value) }.sorted().map { $0 + "," }.joined() + "}"
    case .enum where children.isEmpty:
      out += "." + String(describing: value)
    default:
      // Structs, classes, labelled tuples, and enum cases with a payload (the label is the case's name).
      out += mirror.displayStyle == .enum ? "." : "("
      for child in children {
        out += quoted(child.label ?? "") + ":"
        write(child.value, to: &out)
        out += ","
      }
      out += mirror.displayStyle == .enum ? "" : ")"
    }
  }

  /// Scalars written exactly; nil for a value to walk into.
  private static func leaf(_ value: Any) -> String? {
    switch value {
    case let x as Double: return "d" + String(x.bitPattern, radix: 16)
    case let x as Float: return "f" + String(x.bitPattern, radix: 16)
    case let x as Int: return "i" + String(x)
    case let x as Bool: return x ? "true" : "false"
    case let x as String: return quoted(x)
    case let x as Substring: return quoted(String(x))
    case let x as any BinaryInteger: return "i" + String(describing: x)
    default: return nil
    }
  }

  /// The string with its UTF-8 length in front: no character in it can end it early.
  private static func quoted(_ text: String) -> String {
    "\(text.utf8.count)\"" + text
  }
}

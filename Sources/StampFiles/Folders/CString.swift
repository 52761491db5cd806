extension Array where Element == CChar {
  /// The UTF-8 text of a NUL-terminated C buffer filled by a C call (up to its first NUL, or all of it).
  package var nulTerminatedText: String {
    String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

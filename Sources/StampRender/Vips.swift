import CVips
import CVipsShim

/// Process-wide libvips state: start-up and the error buffer.
enum Vips {
  /// Starts libvips once; later calls return at once.
  static func start() throws {
    if scv_init() != 0 {
      throw RenderError.startup(takeError())
    }
  }

  /// Lets libvips use the loaders it marks untrusted (`--allow-untrusted-loaders`), or blocks them again.
  static func allowUntrustedLoaders(_ allow: Bool) throws {
    try start()
    scv_allow_untrusted(allow ? 1 : 0)
  }

  /// libvips' accumulated error text, trimmed, and the buffer cleared.
  static func takeError() -> String {
    guard let raw = scv_error_take() else { return "unknown libvips error" }
    defer { free(raw) }
    let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? "unknown libvips error" : text.replacingOccurrences(of: "\n", with: "; ")
  }
}

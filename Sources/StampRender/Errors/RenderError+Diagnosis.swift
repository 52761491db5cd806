import Foundation
import StampFiles

extension RenderError {
  /// This failure, met while rendering from the photo `base`, told by the file at fault: libvips decodes the photo
  /// lazily, while it encodes the output, so the message of a truncated photo speaks of the encoder and names a
  /// temporary file, and with jobs failing at once it may be another job's. The photo is decoded again alone
  /// (`Vips.check`): when that fails the error names the photo and what is wrong with it; otherwise a write error
  /// keeps only what concerns its output. Errors that already name their file and cause are returned as they are.
  package func diagnosed(reading base: String) -> RenderError {
    switch self {
    case .startup, .tooLarge, .fileTooLarge, .unsupportedFormat, .input, .stopped:
      return self
    case .damaged(let path, let message, let truncated):
      // libjpeg read the photo whole (the JPEG path, or the check before the libvips path) and said what it found.
      return .input(path: path, problem: truncated ? "truncated JPEG" : "corrupt JPEG data (\(message))")
    case .refused(_, .loaderNotAllowed, _):
      // A format refused by the loader policy: decoding it again would only say it is not a photo.
      return self
    case .refused(let path, .unknownFormat, _):
      // No loader knows its first bytes (told by the open itself, so surely this file's).
      return .input(path: path, problem: Self.notAnImage)
    case .unreadable(let path, _), .refused(let path, .cannotReopen, _), .operation(let path, _, _):
      guard PathKey(path) == PathKey(base), let problem = Self.problem(reading: base) else { return self }
      return .input(path: base, problem: problem)
    case .write:
      if let problem = Self.problem(reading: base) { return .input(path: base, problem: problem) }
      return self
    case .encoding(let path, let lines):
      if let problem = Self.problem(reading: base) { return .input(path: base, problem: problem) }
      // The photo is fine: drop what other jobs' failures left in the shared buffer (their inputs' loaders,
      // their temporary files).
      let own = lines.map(VipsLine.init).filter { !$0.fromLoader && !$0.namesTemporary }
      return .encoding(path: path, lines: own.isEmpty ? ["unknown libvips error"] : own.map(\.text))
    }
  }

  /// What is wrong with the image file at `path` (missing, a folder, unreadable, or not decoding under `failOn`), nil
  /// when nothing.
  static func problem(reading path: String, failOn: InputPolicy.FailOn = .error) -> String? {
    // Never open a FIFO or a device to look at it: that could block, or never end.
    if let problem = InputFile.problem(with: path) { return problem }
    return Vips.check(path, failOn: failOn).map(problem)
  }

  /// What a file that no loader knows is, in plain words.
  static let notAnImage = "not a JPEG/PNG/WebP/TIFF/... image"

  /// A JPEG of `bits`-bit samples, in plain words. libjpeg built for 8-bit samples (Debian's libjpeg-turbo 2.1)
  /// refuses any other at its header ("Unsupported JPEG data precision 12"), for libvips and for stampcam's own
  /// libjpeg code alike: such a photo cannot be read at all, on either path.
  static func jpegPrecision(_ bits: Substring) -> String {
    "a \(bits)-bit JPEG, which stampcam cannot read (its libjpeg reads 8-bit JPEGs only)"
  }

  /// Plain words for what a failed decode (`Vips.check`) says is wrong with a file: `not a JPEG/PNG/WebP/TIFF/...
  /// image`, `truncated JPEG`, or `broken PNG: IDAT: CRC error` (libvips' own detail without its bookkeeping lines).
  static func problem(_ failure: Vips.Failure) -> String {
    let lines = failure.lines.map(VipsLine.init)
    if failure.loader.isEmpty || lines.contains(where: \.unknownFormat) {
      return notAnImage
    }
    let format = Self.format(loader: failure.loader)
    if let bits = lines.lazy.compactMap(\.jpegPrecision).first { return jpegPrecision(bits) }
    if lines.contains(where: \.truncated) { return "truncated \(format)" }
    var detail: [String] = []
    for line in lines where !line.bookkeeping {
      // libpng names a bad chunk by its four bytes, which may be anything.
      let printable = String(
        line.text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
      if !detail.contains(printable) { detail.append(printable) }
    }
    return "broken \(format)" + (detail.isEmpty ? "" : ": " + detail.joined(separator: "; "))
  }

  /// The format a libvips loader reads, for people: "jpegload" -> "JPEG", "webpload_source" -> "WebP".
  static func format(loader: String) -> String {
    let name = loader.components(separatedBy: "load").first ?? loader
    return name == "webp" ? "WebP" : name.isEmpty ? "image" : name.uppercased()
  }
}

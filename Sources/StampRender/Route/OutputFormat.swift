import CVipsGlue
import StampFiles

/// The file formats stampcam writes, chosen by the output's extension.
package enum OutputFormat: String, Sendable, CaseIterable {
  case jpeg, png, webp, tiff, avif, heic, jxl

  /// The format for a path's extension (case-insensitive), or nil when stampcam cannot write it.
  package init?(path: String) {
    // Bytes: a `/` joined to a combining mark after it is one Character, and a Character search would miss it.
    let bytes = path.utf8
    guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), !bytes[dot...].contains(UInt8(ascii: "/")) else {
      return nil
    }
    switch String(decoding: bytes[bytes.index(after: dot)...], as: UTF8.self).lowercased() {
    case "jpg", "jpeg": self = .jpeg
    case "png": self = .png
    case "webp": self = .webp
    case "tif", "tiff": self = .tiff
    case "avif": self = .avif
    case "heic", "heif": self = .heic
    case "jxl": self = .jxl
    default: return nil
    }
  }

  /// The format's name as people write it.
  package var name: String {
    switch self {
    case .jpeg: return "JPEG"
    case .png: return "PNG"
    case .webp: return "WebP"
    case .tiff: return "TIFF"
    case .avif: return "AVIF"
    case .heic: return "HEIC"
    case .jxl: return "JPEG XL"
    }
  }

  /// The extensions an output may end in, as error messages list them.
  package static let extensions = ".jpg, .jpeg, .png, .webp, .tif, .tiff, .avif, .heic, .heif or .jxl"

  /// The number `scv_save_descriptor` knows the format by.
  var saverCode: Int32 {
    switch self {
    case .jpeg: return 0
    case .png: return 1
    case .webp: return 2
    case .tiff: return 3
    case .avif: return 4
    case .heic: return 5
    case .jxl: return 6
    }
  }

  /// What this machine lacks to write the format, or nil when it writes it. libvips is built with or without
  /// libheif and libjxl, and libheif with or without each encoder (Debian 12's has libaom for AV1 and x265 for
  /// HEVC, and its libvips libjxl 0.7): neither says so until a save is tried, so a small picture is encoded once,
  /// the first time the format is asked about.
  package var missingEncoder: String? {
    switch self {
    case .jpeg, .png, .webp, .tiff: return nil
    case .avif: return Self.avifProbe
    case .heic: return Self.heicProbe
    case .jxl: return Self.jxlProbe
    }
  }

  /// The encoders a format needs, named as a user installs them.
  private var encoder: String {
    switch self {
    case .avif: return "libheif with an AV1 encoder (libaom; Debian: libheif1 and libaom3)"
    case .heic: return "libheif with an HEVC encoder (x265; Debian: libheif1 and libx265-199)"
    case .jxl: return "libvips built with libjxl (Debian: libjxl0.7)"
    case .jpeg, .png, .webp, .tiff: return "libvips"
    }
  }

  // Each probed format's refusal, or nil: a `static let` runs its initializer once, on first use, thread-safely.
  private static let avifProbe = probe(.avif)
  private static let heicProbe = probe(.heic)
  private static let jxlProbe = probe(.jxl)

  private static func probe(_ format: OutputFormat) -> String? {
    guard (try? Vips.start()) != nil else { return "libvips could not start" }
    let failed = Vips.call { scv_save_probe(format.saverCode) != 0 }
    guard failed else { return nil }
    let said = Vips.takeErrorLines().first.map { " (libvips: \($0))" } ?? ""
    return "\(format.name) output needs \(format.encoder), which this machine's libvips cannot use\(said)"
  }

  /// The most pixels a side the format's writer takes (tried with libvips 8.14 on Debian 12): libjpeg refuses more
  /// than 65,500 (its JPEG_MAX_DIMENSION), libwebp more than 16,383 (its header holds 14 bits). libvips' PNG and
  /// TIFF writers took 10,000,000 a side, the most libvips holds (VIPS_MAX_COORD), which no photo it reads exceeds.
  /// libheif 1.15 writes AVIF and HEIC wider than 16,384 but reads none back (its security limit), so no more is
  /// written; libjxl 0.7 wrote and read back 70,000 (its header holds 2^30), so libvips' own limit stands.
  package var maxSide: Int {
    switch self {
    case .jpeg: return 65_500
    case .webp: return 16_383
    case .avif, .heic: return 16_384
    case .png, .tiff, .jxl: return 10_000_000
    }
  }

  /// Why a picture of `width` x `height` pixels cannot be written in this format, or nil when it can.
  package func problem(width: Int, height: Int) -> String? {
    guard width > maxSide || height > maxSide else { return nil }
    return "it would be \(width) x \(height) pixels, and \(name) holds at most \(maxSide) pixels a side"
  }
}

extension OutputTarget {
  /// The format the name's extension asks for.
  var format: OutputFormat? { OutputFormat(path: name) }
}

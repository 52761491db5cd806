// swift-tools-version:6.0
import PackageDescription

// The pkg-config module CVips takes its compiler flags from. SwiftPM reads the Cflags of every module vips.pc requires,
// privately or not (as `pkg-config --cflags` does), and two carry -pthread, which it refuses with a "prohibited
// flag(s): -pthread" warning: gmodule-no-export-2.0 (reached through gio-2.0, which vips requires, and ten other
// ways) and OpenEXR. On Linux libvips' headers and library lie in the compiler's and linker's default folders, and
// its headers need only GLib's include folders: GObject's module gives those (GLib's with them, no -pthread), and
// CVips' module map links libvips.
let vipsPkgConfig = "gobject-2.0"

// The libraries apps use, and what they stand on: pure Swift over the C library, no C target of ours, no libvips.
// They are written for Linux, the Apple platforms and Android (`canImport(Glibc)` / `Darwin` guards) but built and
// tested on Linux only.
var products: [Product] = [
  // For apps (iOS, macOS, Android): the gesture engine alone; no Foundation, no C, no libvips.
  .library(name: "StampCore", targets: ["StampCore"]),
  // Reading and writing manifests, so an app can hand what the person did to the batch (Foundation, no C).
  .library(name: "StampManifest", targets: ["StampManifest"]),
]
var targets: [Target] = [
  // Pure Swift: geometry, touches, recognizers, viewport, scene replay. Knows no pixels.
  .target(name: "StampCore"),
  // The door to the system: owned descriptors, errno, file status and versions, every system call of the file
  // layer in one file with the fault seam tests use. The C library only: no Foundation.
  .target(name: "StampSystem"),
  // Manifest decoding and validation with JSON paths. Knows no pixels.
  .target(name: "StampManifest", dependencies: ["StampCore", "StampSystem"]),
  // What several test targets share: a temporary folder with file writers (no pixels, so tests that need none link
  // no libvips), and beside it (in StampTestSupport) the picture writers and decoded pictures.
  .target(name: "StampTestFolders", path: "Tests/StampTestFolders"),
  .testTarget(name: "StampCoreTests", dependencies: ["StampCore"]),
  .testTarget(
    name: "StampManifestTests", dependencies: ["StampManifest", "StampCore", "StampSystem", "StampTestFolders"]),
  .testTarget(name: "StampSystemTests", dependencies: ["StampSystem", "StampTestFolders"]),
]

// The tool, stampcam, is Linux's alone: it, its C (with a glibc-only lock initialiser in CVipsGlue/vips_errors.c) and
// its tests are built and run on Linux only, so elsewhere the package offers the libraries above and nothing it has
// never built.
#if os(Linux)
  products.append(.executable(name: "stampcam", targets: ["stampcam"]))
  targets += [
    // libvips: compiler flags from vipsPkgConfig (above); its module map links libvips itself.
    .systemLibrary(name: "CVips", pkgConfig: vipsPkgConfig, providers: [.apt(["libvips-dev"])]),
    // libjpeg (libjpeg-turbo), found through pkg-config.
    .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
    // stampcam's direct use of libjpeg (not through libvips), libjpeg alone: the lossless DCT-domain path (the photo's
    // blocks, restart intervals, splicing, the write in the photo's coding; redrawn blocks through libjpeg's own DCT
    // and colour modules where its jpegint.h is installed), the one-pass row reader of the libvips path, the ICC
    // profile check both paths keep profiles by, and the one error manager all of it uses.
    .target(name: "CJPEGDirect", dependencies: ["CJPEG"]),
    // stampcam's C over libvips: fixed-arity wrappers over its variadic API, the error gate, input loading under the
    // loader policy, and the libvips image over CJPEGDirect's row reader. Its header shows libvips only.
    .target(name: "CVipsGlue", dependencies: ["CVips", "CJPEGDirect"]),
    // File safety: folders held open and walked with openat, staged atomic writes, temporaries and their cleanup,
    // the input policy and input root, the one lock, on StampSystem's descriptors. No libvips, no JPEG.
    .target(name: "StampFiles", dependencies: ["StampSystem"]),
    // Composition and the two render paths (JPEG coefficients, libvips pixels): the only module over the C targets.
    .target(
      name: "StampRender",
      dependencies: ["StampCore", "StampFiles", "StampSystem", "CVips", "CVipsGlue", "CJPEGDirect"]),
    // Jobs: manifest + headers -> scene -> render plan -> files.
    .target(
      name: "StampBatch", dependencies: ["StampCore", "StampManifest", "StampFiles", "StampSystem", "StampRender"]),
    // libmicrohttpd, the HTTP server `stampcam record` embeds: found through pkg-config.
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    // stampcam's C over libmicrohttpd: fixed-arity wrappers over its variadic API, the body gathered up to a limit.
    .target(name: "CHTTPGlue", dependencies: ["CMicroHTTPD"]),
    // `stampcam record`: the page (embedded in the binary), its server, one StampSession per page, the checks that
    // let it face a network, and the write of the recorded job back into its manifest.
    .target(
      name: "StampRecord",
      dependencies: ["StampCore", "StampManifest", "StampFiles", "StampSystem", "StampBatch", "CHTTPGlue"],
      resources: [.embedInCode("Resources/recorder.html")]),
    // The thin command line.
    .executableTarget(
      name: "stampcam",
      dependencies: [
        "StampBatch", "StampManifest", "StampCore", "StampFiles", "StampSystem", "StampImport", "StampRecord",
      ]),
    .target(name: "StampImport", dependencies: ["StampCore", "StampManifest"]),
    // Gesture-engine benchmark (scripts/bench-gestures): touch events replayed per second.
    .executableTarget(name: "StampBench", dependencies: ["StampCore", "StampManifest"]),
    // The spliced bound of scripts/bench-bound: read a JPEG, scan its entropy-coded data, write it. Not in the product.
    .executableTarget(name: "JPEGScanBench", dependencies: ["CJPEGDirect"]),

    // C wrappers only the tests use (fixture writers, metadata probes, the JPEG coefficient diff, libjpeg as the
    // splice's oracle, which drives CJPEGDirect): not in the product.
    .target(name: "StampTestShim", dependencies: ["CVips", "CJPEG", "CJPEGDirect"], path: "Tests/StampTestShim"),
    .target(
      name: "StampTestSupport", dependencies: ["StampFiles", "StampRender", "StampTestFolders", "StampTestShim"],
      path: "Tests/StampTestSupport"),
    .testTarget(name: "StampFilesTests", dependencies: ["StampFiles", "StampSystem", "StampTestFolders"]),
    .testTarget(
      name: "StampRenderTests",
      dependencies: [
        "StampRender", "StampCore", "StampFiles", "StampTestFolders", "StampTestSupport", "StampTestShim",
        "CJPEGDirect",
      ]),
    .testTarget(
      name: "StampBatchTests",
      dependencies: [
        "StampBatch", "StampManifest", "StampCore", "StampFiles", "StampSystem", "StampRender", "StampTestFolders",
        "StampTestSupport",
      ]),
    .testTarget(
      name: "stampcamTests",
      dependencies: ["stampcam", "StampFiles", "StampImport", "StampTestFolders", "StampTestSupport"]),
    .testTarget(name: "StampImportTests", dependencies: ["StampImport", "StampCore"]),
    .testTarget(
      name: "StampRecordTests",
      dependencies: [
        "StampRecord", "StampBatch", "StampCore", "StampManifest", "StampFiles", "StampTestFolders",
        "StampTestSupport",
      ]),
  ]
#endif

let package = Package(
  name: "stampcam",
  // Set when the tool's shared state moved behind Synchronization.Mutex (macOS 15); the libraries use none of it, but
  // have not been built on an Apple platform to find their own floor, so it stays. No minimum is set for iOS.
  platforms: [.macOS(.v15)],
  products: products,
  targets: targets,
  swiftLanguageModes: [.v6]
)

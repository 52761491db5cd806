// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "stampcam",
  // The batch's shared state sits behind Synchronization.Mutex (macOS 15). StampCore and StampManifest use none of
  // it, and no minimum is set for iOS, where only they are used.
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "stampcam", targets: ["stampcam"]),
    // For apps (iOS, macOS, Android): the gesture engine alone; no Foundation, no C, no libvips.
    .library(name: "StampCore", targets: ["StampCore"]),
    // Reading and writing manifests, so an app can hand what the person did to the batch (Foundation, no C).
    .library(name: "StampManifest", targets: ["StampManifest"]),
  ],
  targets: [
    // Pure Swift: geometry, touches, recognizers, viewport, scene replay. Knows no pixels.
    .target(name: "StampCore"),
    // Manifest decoding and validation with JSON paths. Knows no pixels.
    .target(name: "StampManifest", dependencies: ["StampCore"]),
    // libvips, found through pkg-config.
    .systemLibrary(
      name: "CVips",
      pkgConfig: "vips",
      providers: [.apt(["libvips-dev"]), .brew(["vips"])]
    ),
    // Fixed-arity C wrappers over libvips' variadic API, and the libjpeg code of the DCT-domain JPEG path.
    .target(name: "CVipsShim", dependencies: ["CVips"], linkerSettings: [.linkedLibrary("jpeg")]),
    // File safety: folders held open and walked with openat, staged atomic writes, temporaries and their cleanup,
    // file identities, the input policy and input root. Foundation only: no libvips, no JPEG.
    .target(name: "StampFiles"),
    // The only module that talks to libvips.
    .target(name: "StampRender", dependencies: ["StampCore", "StampFiles", "CVips", "CVipsShim"]),
    // Jobs: manifest + headers -> scene -> render plan -> files.
    .target(name: "StampBatch", dependencies: ["StampCore", "StampManifest", "StampFiles", "StampRender"]),
    // The thin command line.
    .executableTarget(
      name: "stampcam", dependencies: ["StampBatch", "StampManifest", "StampCore", "StampFiles", "StampImport"]),
    .target(name: "StampImport", dependencies: ["StampCore", "StampManifest"]),
    // Gesture-engine benchmark (scripts/bench-gestures): touch events replayed per second.
    .executableTarget(name: "StampBench", dependencies: ["StampCore", "StampManifest"]),

    // C wrappers only the tests use (fixture writers, metadata probes, the JPEG coefficient diff): not in the product.
    .target(
      name: "StampTestShim", dependencies: ["CVips"], path: "Tests/StampTestShim",
      linkerSettings: [.linkedLibrary("jpeg")]),
    // What several test targets share: a temporary folder with file writers (no pixels, so tests that need none link
    // no libvips), and beside it the picture writers and decoded pictures.
    .target(name: "StampTestFolders", path: "Tests/StampTestFolders"),
    .target(
      name: "StampTestSupport", dependencies: ["StampFiles", "StampRender", "StampTestFolders", "StampTestShim"], path: "Tests/StampTestSupport"),
    .testTarget(name: "StampCoreTests", dependencies: ["StampCore"]),
    .testTarget(name: "StampManifestTests", dependencies: ["StampManifest", "StampCore", "StampTestFolders"]),
    .testTarget(name: "StampFilesTests", dependencies: ["StampFiles", "StampTestFolders"]),
    .testTarget(
      name: "StampRenderTests",
      dependencies: ["StampRender", "StampCore", "StampFiles", "StampTestFolders", "StampTestSupport", "StampTestShim"]),
    .testTarget(
      name: "StampBatchTests", dependencies: [
        "StampBatch", "StampManifest", "StampCore", "StampFiles", "StampRender", "StampTestFolders", "StampTestSupport",
      ]),
    .testTarget(name: "stampcamTests", dependencies: ["stampcam", "StampFiles", "StampTestFolders", "StampTestSupport"]),
    .testTarget(name: "StampImportTests", dependencies: ["StampImport", "StampCore"]),
  ],
  swiftLanguageModes: [.v6]
)

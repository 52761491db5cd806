// swift-tools-version:6.0
// An app's use of stampcam's solver, as a command-line stand-in: `swift run` in this folder.
import PackageDescription

let package = Package(
  name: "StampApp",
  dependencies: [
    // In an app: .package(url: "<where stampcam is hosted>", branch: "main"), or a path to a clone.
    .package(path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "StampApp",
      dependencies: [
        // `package` is the clone's folder name.
        .product(name: "StampCore", package: "stampcam"),
        .product(name: "StampManifest", package: "stampcam"),
      ])
  ],
  swiftLanguageModes: [.v6]
)

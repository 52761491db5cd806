/// stampcam's version: printed by `--version`, and part of every resume fingerprint (outputs made by another
/// version are rendered again under `--resume`).
package enum StampcamVersion {
  /// The version, e.g. `0.1.0`.
  package static let current = "0.1.0"
}

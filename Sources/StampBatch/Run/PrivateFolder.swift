import StampFiles

/// The run's own folder, `.stampcam` in the output folder (mode 0700, this user's, never reached through a symbolic
/// link): where the resume records, the claims on outputs and a manifest piped on standard input are kept.
package enum PrivateFolder {
  /// Opens `.stampcam` under the output folder `out`, making both when missing, as a run does.
  package static func open(under out: String) throws -> Folder {
    try ResumeLedger(output: OutputPaths(folder: out).folder).folder
  }
}

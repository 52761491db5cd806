import StampManifest

/// `stampcam schema`: the manifest's JSON Schema on stdout.
struct SchemaCommand: Subcommand {
  static let name = "schema"
  static let forms = [Form<SchemaCommand>(options: [], start: SchemaCommand())]
  static let help = Help(about: "Prints the manifest's JSON Schema (draft 2020-12).")

  func run() -> Int32 {
    StandardStream.output.write(ManifestSchema.json)
    return ExitStatus.success
  }
}

extension Command {
  static let schema = Command(SchemaCommand())
}

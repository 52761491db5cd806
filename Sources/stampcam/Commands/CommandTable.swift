/// Every subcommand, in the order the help lists them. A new subcommand is one file with a type conforming to
/// `Subcommand`, and one line here: the parser, `stampcam --help`, `stampcam help NAME` and the messages that list
/// the commands all read this table.
enum CommandTable {
  static let all: [any Subcommand.Type] = [
    RenderCommand.self,
    ValidateCommand.self,
    ExplainCommand.self,
    ImportCommand.self,
    RecordCommand.self,
    SchemaCommand.self,
  ]

  static var names: [String] { all.map { $0.name } }

  static func named(_ name: String) -> (any Subcommand.Type)? {
    all.first { $0.name == name }
  }
}

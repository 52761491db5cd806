import StampFiles
import StampBatch
import StampImport

/// Turns `CommandLine.arguments` (without the program name) into a `Command`.
///
/// Options take `--name value` or `--name=value`; `--` ends the options. Every mistake is a `UsageError` that says
/// what was wrong and what to try instead.
struct Parser {
  private var arguments: [String]
  private var index = 0

  static func parse(_ arguments: [String]) throws -> Command {
    var parser = Parser(arguments: arguments)
    return try parser.command()
  }

  private init(arguments: [String]) {
    self.arguments = arguments
  }

  private mutating func command() throws -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    index = 1
    switch first {
    case "-h", "--help": return .help(topic: nil)
    case "help": return .help(topic: try helpTopic())
    case "-V", "--version", "version": return .version
    case "render": return try render()
    case "validate":
      var inputs = InputOptions()
      return try withManifest(
        "validate",
        options: [
          "--max-pixels": { inputs.maxPixels = try Self.maxPixels($0) },
          "--input-root": { inputs.inputRoot = try Self.inputRoot($0) },
        ],
        flags: ["--allow-untrusted-loaders": { inputs.allowUntrustedLoaders = true }]
      ) { manifest, _ in .validate(manifest: manifest, inputs: inputs) }
    case "explain":
      var job: String?
      var inputs = InputOptions()
      return try withManifest(
        "explain",
        options: [
          "--job": { job = $0 }, "--max-pixels": { inputs.maxPixels = try Self.maxPixels($0) },
          "--input-root": { inputs.inputRoot = try Self.inputRoot($0) },
        ],
        flags: ["--allow-untrusted-loaders": { inputs.allowUntrustedLoaders = true }]
      ) { manifest, _ in .explain(manifest: manifest, job: job, inputs: inputs) }
    case "import": return try importLog()
    case "schema":
      if arguments.count > 1 && (arguments[1] == "--help" || arguments[1] == "-h") { return .help(topic: "schema") }
      try expectEnd("schema")
      return .schema
    default:
      if first.hasPrefix("-") { throw UsageError(message: "unknown option '\(first)' (see 'stampcam --help')") }
      throw UsageError(message: "unknown command '\(first)' (commands: \(Usage.commands.joined(separator: ", ")))")
    }
  }

  private mutating func helpTopic() throws -> String? {
    guard index < arguments.count else { return nil }
    let topic = arguments[index]
    guard Usage.commands.contains(topic) else {
      throw UsageError(message: "no help for '\(topic)' (commands: \(Usage.commands.joined(separator: ", ")))")
    }
    return topic
  }

  private mutating func render() throws -> Command {
    var out: String?
    var jobs: Int?
    var maxPixels = 100_000_000
    var quiet = false
    var overlay = false
    var resume = false
    var shard: String?
    var report: String?
    var inputs = RenderOptions(manifest: "", out: "")
    return try withManifest(
      "render",
      options: [
        "--out": { out = $0 },
        "--jobs": { jobs = try Self.integer($0, option: "--jobs", range: 1...1024) },
        "--max-pixels": { maxPixels = try Self.maxPixels($0) },
        "--shard": { text in
          guard Shard(text) != nil else {
            throw UsageError(message: "--shard needs I/N with 0 <= I < N (e.g. 0/4 ... 3/4), not '\(text)'")
          }
          shard = text
        },
        "--report": { report = $0 },
        "--input-root": { inputs.inputRoot = try Self.inputRoot($0) },
        "--fail-on": { text in
          guard let level = InputPolicy.FailOn(rawValue: text) else {
            throw UsageError(message: "--fail-on needs none, truncated, error or warning, not '\(text)'")
          }
          inputs.failOn = level
        },
        "--job-timeout": { text in
          guard let seconds = Double(text), seconds.isFinite, (0...86_400).contains(seconds) else {
            throw UsageError(message: "--job-timeout needs seconds from 0 (no limit) to 86400, not '\(text)'")
          }
          inputs.jobTimeout = seconds
        },
        "--stamp-cache-mb": {
          inputs.stampCacheMB = try Self.integer($0, option: "--stamp-cache-mb", range: 1...65_536)
        },
      ],
      flags: [
        "--quiet": { quiet = true }, "-q": { quiet = true }, "--overlay": { overlay = true },
        "--resume": { resume = true }, "--allow-untrusted-loaders": { inputs.allowUntrustedLoaders = true },
      ]
    ) { manifest, _ in
      guard let out else { throw UsageError(message: "render needs --out DIR (the folder the outputs go to)") }
      var options = inputs
      (options.manifest, options.out, options.jobs, options.quiet) = (manifest, out, jobs, quiet)
      (options.overlay, options.shard, options.resume) = (overlay, shard, resume)
      (options.report, options.maxPixels) = (report, maxPixels)
      return .render(options)
    }
  }

  /// `--max-pixels`' value, for render and validate alike.
  private static func maxPixels(_ text: String) throws -> Int {
    try integer(text, option: "--max-pixels", range: 1...Int(Int32.max) * 16)
  }

  /// `--input-root`'s value, for render and validate alike.
  private static func inputRoot(_ text: String) throws -> String {
    guard !text.isEmpty else { throw UsageError(message: "--input-root needs a folder") }
    return text
  }

  private mutating func importLog() throws -> Command {
    guard index < arguments.count else {
      throw UsageError(message: "import needs a format: 'import getevent LOG --screen WxH' or 'import cdp LOG'")
    }
    let name = arguments[index]
    index += 1
    if name == "--help" || name == "-h" { return .help(topic: "import") }
    guard let format = ImportOptions.Format(rawValue: name) else {
      throw UsageError(message: "import reads 'getevent' or 'cdp' logs, not '\(name)'")
    }
    var screen: (Double, Double)?
    var device: String?
    var axisMax: (Int, Int)?
    var frameInterval: Double?
    var out: String?
    var options: [String: (String) throws -> Void] = ["--out": { out = $0 }]
    if format == .getevent {
      options["--screen"] = {
        let (w, h) = try Self.pair($0, option: "--screen")
        guard w <= GeteventImporter.maxScreenSide, h <= GeteventImporter.maxScreenSide else {
          let most = Int(GeteventImporter.maxScreenSide)
          throw UsageError(message: "--screen sides must be at most \(most) points, not '\($0)'")
        }
        screen = (w, h)
      }
      options["--device"] = { device = $0 }
      options["--axis-max"] = {
        let (x, y) = try Self.pair($0, option: "--axis-max")
        let most = Double(GeteventImporter.maxAxis)
        guard x == x.rounded(), y == y.rounded(), x <= most, y <= most else {
          throw UsageError(
            message: "--axis-max needs whole numbers up to \(GeteventImporter.maxAxis), as XxY (e.g. 1079x2399)")
        }
        axisMax = (Int(x), Int(y))
      }
      options["--frame-interval"] = {
        guard let seconds = Double($0), seconds.isFinite, seconds > 0, seconds <= GeteventImporter.maxFrameInterval
        else {
          throw UsageError(
            message: "--frame-interval needs seconds above 0 and at most 1 (e.g. 0.008 for a 120 Hz panel), "
              + "not '\($0)'")
        }
        frameInterval = seconds
      }
    }
    return try withManifest("import \(name)", what: "LOG", options: options) { log, _ in
      if format == .getevent && screen == nil {
        throw UsageError(message: "import getevent needs --screen WxH (the screen in points, e.g. 390x844)")
      }
      return .importLog(
        ImportOptions(
          format: format, log: log, screen: screen, device: device, axisMax: axisMax, frameInterval: frameInterval,
          out: out))
    }
  }

  /// `WxH` as two positive numbers.
  private static func pair(_ text: String, option: String) throws -> (Double, Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a > 0, b > 0, a.isFinite, b.isFinite
    else {
      throw UsageError(message: "\(option) needs WxH with two positive numbers (e.g. 390x844), not '\(text)'")
    }
    return (a, b)
  }

  /// Reads one positional MANIFEST and the given options and flags, then builds the command.
  private mutating func withManifest(
    _ name: String, what: String = "MANIFEST", options: [String: (String) throws -> Void] = [:],
    flags: [String: () -> Void] = [:],
    build: (String, Int) throws -> Command
  ) throws -> Command {
    var manifest: String?
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        guard manifest == nil else {
          throw UsageError(message: "\(name) takes one \(what.lowercased()); unexpected '\(argument)'")
        }
        manifest = argument
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "--help" || argument == "-h" {
        return .help(topic: name.split(separator: " ").first.map(String.init))
      }
      let (key, inline) = Self.split(argument)
      if let flag = flags[key] {
        guard inline == nil else { throw UsageError(message: "\(key) takes no value") }
        flag()
      } else if let option = options[key] {
        let value: String
        if let inline {
          value = inline
        } else {
          guard index < arguments.count else { throw UsageError(message: "\(key) needs a value") }
          value = arguments[index]
          index += 1
        }
        try option(value)
      } else {
        let known = (Array(options.keys) + Array(flags.keys)).filter { $0.hasPrefix("--") }.sorted()
        let hint = known.isEmpty ? "" : " (\(name) takes \(known.joined(separator: ", ")))"
        throw UsageError(message: "unknown option '\(key)' for \(name)\(hint)")
      }
    }
    guard let manifest else {
      let topic = name.split(separator: " ").first.map(String.init) ?? name
      throw UsageError(message: "\(name) needs a \(what) (see 'stampcam help \(topic)')")
    }
    return try build(manifest, index)
  }

  private func expectEnd(_ name: String) throws {
    if index < arguments.count {
      throw UsageError(message: "\(name) takes no arguments; unexpected '\(arguments[index])'")
    }
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        message: "\(option) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return value
  }
}

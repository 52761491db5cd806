import Foundation
import Testing

/// The scale-out recipes in Examples/pipelines, run as their engines would run them.
@Suite("Scale-out recipes")
struct ScaleOutRecipeTests {
  /// What a Kubernetes Indexed Job runs, read from its YAML file: the number of completions, the volume's mount
  /// path, and the shell script each pod runs (`command: ["sh", "-c"]`, `args: [script]`, a plain YAML scalar whose
  /// lines fold into one, joined by spaces).
  struct IndexedJob {
    var completions: Int
    var mountPath: String
    var script: String

    init(yaml: String) throws {
      let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      func value(of key: String) -> String? {
        lines.lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(key + ": ") }
          .map { String($0.dropFirst(key.count + 2)) }
      }
      completions = try #require(value(of: "completions").flatMap { Int($0) })
      mountPath = try #require(value(of: "mountPath"))
      #expect(value(of: "command") == #"["sh", "-c"]"#)
      let args = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "args:" })
      let first = lines[args + 1]
      let dash = first.prefix { $0 == " " }.count
      #expect(first.dropFirst(dash).hasPrefix("- "))
      var parts = [String(first.dropFirst(dash + 2))]
      for line in lines[(args + 2)...] {
        guard line.prefix(while: { $0 == " " }).count > dash, !line.trimmingCharacters(in: .whitespaces).isEmpty
        else { break }
        parts.append(line.trimmingCharacters(in: .whitespaces))
      }
      script = parts.joined(separator: " ")
    }
  }

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The Examples photos under several names and sub-folders of `in/`: more photos than pods, so that some shards
  /// render two.
  static let folderPhotos = [
    ("dragonfly", "a.jpg"), ("seeding", "b.jpg"), ("sunset", "c.jpg"), ("dragonfly", "trip/d.jpg"),
    ("seeding", "trip/e.jpg"), ("sunset", "trip/f.jpg"), ("dragonfly", "trip/day2/g.jpg"),
    ("seeding", "trip/day2/h.jpg"), ("sunset", "garden/i.jpg"), ("dragonfly", "garden/j.jpg"),
    ("seeding", "garden/deep/k.jpg"),
  ]

  /// `stampcam help render` shows the command the Indexed Job's pods run, as the recipe writes it (an example's lines
  /// ending in a backslash continue on the next; a comment after "#" is not part of it).
  @Test func renderHelpShowsTheIndexedJobsCommand() throws {
    let yaml = try String(
      contentsOf: Self.repository.appendingPathComponent("Examples/pipelines/kubernetes-indexed-job.yaml"),
      encoding: .utf8)
    let script = try IndexedJob(yaml: yaml).script
    let command = String(script[try #require(script.range(of: "stampcam render ")).lowerBound...])
    let cli = try CommandRunner()
    defer { cli.remove() }
    let help = try cli.run(["help", "render"])
    #expect(help.status == 0)
    var examples: [String] = []
    var continued = false
    for line in try HelpTests.block(after: "EXAMPLES", in: help.stdout, indent: 2) {
      var text = line.components(separatedBy: "   # ")[0].trimmingCharacters(in: .whitespaces)
      let continues = text.hasSuffix(" \\")
      if continues { text = String(text.dropLast(2)) }
      if continued, let last = examples.popLast() { text = last + " " + text }
      examples.append(text)
      continued = continues
    }
    #expect(examples.contains(command), "\(examples)")
  }

  /// The Indexed Job's pods, each with its JOB_COMPLETION_INDEX, its own pod name and the job's volume at a scratch
  /// folder, render Examples/pipelines/job.json over a folder of photos together exactly as one run does:
  /// byte-identical outputs at `{dir}/{stem}.jpg`, and the same report entries (id, status, outputs), each photo's
  /// job (`JOBID/RELATIVE-PATH`) once. A retried pod (a new pod name) keeps the first attempt's report beside its own,
  /// and skips the photos that attempt finished.
  @Test func theIndexedJobsPodsTogetherEqualOneRun() throws {
    let yaml = try String(
      contentsOf: Self.repository.appendingPathComponent("Examples/pipelines/kubernetes-indexed-job.yaml"),
      encoding: .utf8)
    let job = try IndexedJob(yaml: yaml)
    #expect(job.completions > 1 && job.script.contains("$JOB_COMPLETION_INDEX/\(job.completions)"))
    #expect(job.script.contains("\(job.mountPath)/job.json"))
    let cli = try CommandRunner()
    defer { cli.remove() }
    let examples = Self.repository.appendingPathComponent("Examples")
    let files = FileManager.default
    for (photo, path) in Self.folderPhotos {
      let target = URL(fileURLWithPath: cli.path("data/in/" + path))
      try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try files.copyItem(at: examples.appendingPathComponent("photos/\(photo).jpg"), to: target)
    }
    try files.copyItem(at: examples.appendingPathComponent("stamps"), to: URL(fileURLWithPath: cli.path("data/stamps")))
    try files.copyItem(
      at: examples.appendingPathComponent("pipelines/job.json"), to: URL(fileURLWithPath: cli.path("data/job.json")))
    let expectedOutputs = Set(Self.folderPhotos.map(\.1))
    let expectedIDs = Set(Self.folderPhotos.map { "badge/" + $0.1 })
    #expect(expectedOutputs.count > job.completions)

    let script = job.script.replacingOccurrences(of: job.mountPath + "/", with: cli.path("data") + "/")
    func pod(_ index: Int, name: String) throws -> Process {
      let pod = Process()
      pod.executableURL = URL(fileURLWithPath: "/bin/sh")
      pod.arguments = ["-c", script]
      pod.environment = [
        "PATH": CommandRunner.executable.deletingLastPathComponent().path + ":/usr/bin:/bin",
        "JOB_COMPLETION_INDEX": "\(index)", "HOSTNAME": name,
      ]
      pod.currentDirectoryURL = cli.url
      try pod.run()
      return pod
    }
    let pods = try (0..<job.completions).map { try pod($0, name: "stampcam-\($0)-first") }
    for pod in pods {
      pod.waitUntilExit()
      #expect(pod.terminationStatus == 0)
    }
    let whole = try cli.run(["render", "data/job.json", "--out", "whole", "--report", "whole.jsonl"])
    #expect(whole.status == 0, "\(whole.stderr)")

    let outputs = try BatchCommandTests().contents(cli, "data/out")
    #expect(Set(outputs.keys) == expectedOutputs)
    #expect(outputs == (try BatchCommandTests().contents(cli, "whole")))
    let firstReports = cli.files("data/reports").filter { $0.hasSuffix(".jsonl") }
    #expect(firstReports == (0..<job.completions).map { "\($0).stampcam-\($0)-first.jsonl" }.sorted())
    let shardReports = try firstReports.flatMap { try entries(cli.path("data/reports/" + $0)) }
    let wholeReport = try entries(cli.path("whole.jsonl"))
    #expect(shardReports.count == expectedIDs.count)
    #expect(Set(shardReports) == Set(wholeReport))
    #expect(Set(wholeReport.map { String($0.prefix { $0 != " " }) }) == expectedIDs)
    #expect(wholeReport.allSatisfy { $0.split(separator: " ").dropFirst().first == "ok" })

    // The pod of the shard with two photos fails and is retried: the new pod skips both, and both reports stay.
    let retried = try #require(
      (0..<job.completions).first {
        (try? entries(cli.path("data/reports/\($0).stampcam-\($0)-first.jsonl")))?.count == 2
      })
    let first = try entries(cli.path("data/reports/\(retried).stampcam-\(retried)-first.jsonl"))
    let again = try pod(retried, name: "stampcam-\(retried)-retry")
    again.waitUntilExit()
    #expect(again.terminationStatus == 0)
    #expect(try entries(cli.path("data/reports/\(retried).stampcam-\(retried)-first.jsonl")) == first)
    let retry = try entries(cli.path("data/reports/\(retried).stampcam-\(retried)-retry.jsonl"))
    #expect(retry.sorted() == first.map { $0.replacingOccurrences(of: " ok", with: " skipped") }.sorted())
    #expect(try BatchCommandTests().contents(cli, "data/out") == outputs)
  }

  /// A report's entries without their timings: `id status outputs...` per line.
  private func entries(_ path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let outputs = try #require(object["outputs"] as? [String])
      return ([object["id"] as? String ?? "?", object["status"] as? String ?? "?"] + outputs).joined(separator: " ")
    }
  }
}

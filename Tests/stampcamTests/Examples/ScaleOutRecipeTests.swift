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

  /// The Indexed Job's pods, each with its JOB_COMPLETION_INDEX and the job's volume at a scratch folder, render
  /// together exactly what one run renders: byte-identical outputs, and the same report entries (id, status,
  /// outputs), each job once.
  @Test func theIndexedJobsPodsTogetherEqualOneRun() throws {
    let yaml = try String(
      contentsOf: Self.repository.appendingPathComponent("Examples/pipelines/kubernetes-indexed-job.yaml"),
      encoding: .utf8)
    let job = try IndexedJob(yaml: yaml)
    #expect(job.completions > 1 && job.script.contains("$JOB_COMPLETION_INDEX/\(job.completions)"))
    let cli = try CommandRunner()
    defer { cli.remove() }
    try FileManager.default.createDirectory(atPath: cli.path("data"), withIntermediateDirectories: true)
    try BatchCommandTests.prepare(cli, jobs: 20)
    try FileManager.default.moveItem(atPath: cli.path("photo.ppm"), toPath: cli.path("data/photo.ppm"))
    try FileManager.default.moveItem(atPath: cli.path("stamp.ppm"), toPath: cli.path("data/stamp.ppm"))
    try FileManager.default.moveItem(atPath: cli.path("m.jsonl"), toPath: cli.path("data/jobs.jsonl"))

    let script = job.script.replacingOccurrences(of: job.mountPath + "/", with: cli.path("data") + "/")
    let pods = try (0..<job.completions).map { index in
      let pod = Process()
      pod.executableURL = URL(fileURLWithPath: "/bin/sh")
      pod.arguments = ["-c", script]
      pod.environment = [
        "PATH": CommandRunner.executable.deletingLastPathComponent().path + ":/usr/bin:/bin",
        "JOB_COMPLETION_INDEX": "\(index)",
      ]
      pod.currentDirectoryURL = cli.url
      try pod.run()
      return pod
    }
    for pod in pods {
      pod.waitUntilExit()
      #expect(pod.terminationStatus == 0)
    }
    let whole = try cli.run(["render", "data/jobs.jsonl", "--out", "whole", "--report", "whole.jsonl"])
    #expect(whole.status == 0, "\(whole.stderr)")

    let outputs = try BatchCommandTests().contents(cli, "data/out")
    #expect(outputs.count == 20)
    #expect(outputs == (try BatchCommandTests().contents(cli, "whole")))
    let shardReports = try (0..<job.completions).flatMap { try entries(cli.path("data/reports/\($0).jsonl")) }
    #expect(shardReports.count == 20)
    #expect(Set(shardReports) == Set(try entries(cli.path("whole.jsonl"))))
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

import Foundation
import StampTestSupport
import Testing

extension RenderCommandTests {
  /// Runs stampcam with `arguments` (absolute paths), its output thrown away, and returns its exit status and its
  /// own peak resident memory in KB: wait4's report for that process alone, whatever other tests run meanwhile.
  static func peakMemory(_ arguments: [String]) throws -> (status: Int32, kilobytes: Int) {
    let program = CommandRunner.executable.path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = (argv + [nil]).withUnsafeBufferPointer { list -> Int32 in
      guard let first = list.baseAddress else { return EINVAL }
      return posix_spawn(&pid, program, &actions, nil, first, environ)
    }
    try #require(spawned == 0, "posix_spawn: \(String(cString: strerror(spawned)))")
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      try #require(errno == EINTR, "wait4: \(String(cString: strerror(errno)))")
    }
    return (status & 0x7F == 0 ? (status >> 8) & 0xFF : -1, usage.ru_maxrss)
  }

  /// A photo's ICC profile goes into the output once, however many regions the stamps make: 192 stamps apart on a
  /// 1600 x 1200 photo with a 1 MB profile (the largest kept) take no more memory than on the same photo without
  /// one, give or take a few copies of the profile (each region's own JPEG carries it while it is encoded).
  @Test func aLargeProfileCostsItsSizeNotItsSizePerRegion() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let plain = try cli.jpeg("plain.jpg", width: 1600, height: 1200, rgb: [90, 120, 150])
    try cli.write(
      "profiled.jpg", bytes: ICCProfileFixture.embedding(ICCProfileFixture.profile(length: 1 << 20), in: plain))
    try cli.ppm("dot.png", width: 20, height: 20, rgb: [230, 20, 20])
    // 16 x 12 stamps 100 pixels apart: at 4:2:0 each one's region (its MCUs, one more around) is 4 x 4 MCUs of the
    // photo's 100 x 75, none touching another.
    let stamps = (0..<192).map { k in
      #"{"id": "s\#(k)", "image": "dot.png", "center": [\#(50 + 100 * (k % 16)), \#(50 + 100 * (k / 16))], "width": 20}"#
    }
    var peaks: [String: Int] = [:]
    for name in ["plain", "profiled"] {
      try cli.write(
        "\(name).json",
        #"{"version": 1, "jobs": [{"id": "j", "base": "\#(name).jpg", "output": "\#(name)-out.jpg", "stamps": ["#
          + stamps.joined(separator: ", ") + "]}]}")
      let run = try Self.peakMemory([
        "render", cli.path("\(name).json"), "--out", cli.path("out"), "--jobs", "1", "--report",
        cli.path("\(name)-report.json"),
      ])
      #expect(run.status == 0)
      let report = try String(contentsOfFile: cli.path("\(name)-report.json"), encoding: .utf8)
      #expect(report.contains(#""path": "spliced""#), "\(report)")
      peaks[name] = run.kilobytes
    }
    let plainPeak = try #require(peaks["plain"])
    let profiledPeak = try #require(peaks["profiled"])
    #expect(profiledPeak - plainPeak < 24_000, "peak \(profiledPeak) KB with the profile, \(plainPeak) KB without")
  }
}

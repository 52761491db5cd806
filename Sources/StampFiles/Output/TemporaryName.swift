import Foundation
import StampSystem

/// Names of temporary files: `.<name>.stampcam-<machine>-<pid>-<random>.tmp`, so that a later run can recognise
/// those of a run that died (kill -9) and remove them, and only them. `machine` (eight hex digits) stands for the host
/// and its pid namespace: a pid is judged only where it names the same process, never for a shard running on
/// another machine or in another container that shares the folder. The bytes a name adds are the output path rules'
/// budget (`PathRules.temporaryNameOverhead`, which a test holds to this format).
package enum TemporaryName {
  /// This process's machine: FNV-1a (32 bits) of the host name and the pid namespace.
  package static let machine: String = {
    // Linux names the pid namespace; elsewhere the host stands alone.
    #if os(Linux)
      let namespace = FileSystem.linkText("/proc/self/ns/pid") ?? ""
    #else
      let namespace = ""
    #endif
    let text = FileSystem.hostName + "/" + namespace
    var hash: UInt32 = 2_166_136_261
    for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return hex(hash)
  }()

  /// What a temporary name says of the run that made it.
  struct Owner: Equatable {
    let machine: String
    let pid: pid_t
  }

  /// A fresh temporary name for `name`, owned by this process.
  static func make(for name: String) -> String {
    "." + name + ".stampcam-\(machine)-\(FileSystem.processID)-" + hex(UInt32.random(in: 0...UInt32.max)) + ".tmp"
  }

  /// The maker of `name`, when `name` is a temporary name.
  static func owner(of name: String) -> Owner? {
    guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
    let core = name.dropLast(4)
    guard let marker = core.range(of: ".stampcam-", options: .backwards) else { return nil }
    let tail = core[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
    let hexDigits = Set("0123456789abcdef")
    guard tail.count == 3, tail[0].count == 8, tail[0].allSatisfy(hexDigits.contains), tail[2].count == 8,
      tail[2].allSatisfy(hexDigits.contains), (1...10).contains(tail[1].count),
      tail[1].allSatisfy({ $0 >= "0" && $0 <= "9" }), let pid = pid_t(tail[1]), pid > 0
    else { return nil }
    return Owner(machine: String(tail[0]), pid: pid)
  }

  /// True when the temporary file `name`, last changed at `modified`, belongs to a run that is gone: one on this
  /// machine whose process no longer exists, or one elsewhere that has not touched it for a day.
  static func isStale(_ name: String, modified: time_t, now: time_t = FileSystem.now) -> Bool {
    guard let owner = owner(of: name) else { return false }
    if owner.machine != machine { return now - modified > 86_400 }
    return owner.pid != FileSystem.processID && !FileSystem.processExists(owner.pid)
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }
}
